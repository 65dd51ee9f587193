// The score card on a service's page: the score and subscores, the hotspots (lowest operations
// first, each with its fixes), the operations no probe finds and the look-alike pairs, from the
// stored card (docs/scores.md); never made for the page.
import type { CatalogRecord } from '../store/records.ts';
import type { VersionView } from '../search/endpoints.ts';
import type { PageCatalog, ReachedVersion } from './catalog.ts';
import { pageUrls } from './urls.ts';

/** Look-alike pairs a page lists at most. */
const PAIRS_SHOWN = 10;

interface CardOperation { id: string; operationId: string; method: string; path: string; score: number; fixes: Record<string, string[]> }
interface CardPair { operation: string; other: string; probes: { text: string }[]; apart: { words: { own: string[]; other: string[] } } }

export async function scoreCardOf(catalog: PageCatalog, version: ReachedVersion, view: VersionView, service: CatalogRecord, slug: string): Promise<Record<string, unknown> | undefined> {
  const card = await catalog.scoreCard(version.versionId, service);
  if (!card) return undefined;
  if (card['score'] === undefined) return { pending: true };
  const operations = new Map((card['operations'] as CardOperation[]).map((operation) => [operation.id, operation]));
  const shown = (id: string) => {
    const operation = operations.get(id)!;
    const record = view.byId('operations', id);
    return {
      method: operation.method.toUpperCase(), path: operation.path, score: operation.score,
      href: pageUrls.operation(version.place, slug, String(record?.['operationId'] ?? operation.operationId)),
      fixes: Object.entries(operation.fixes).flatMap(([subscore, fixes]) => fixes.map((fix) => `${subscore}: ${fix}`)),
    };
  };
  return {
    pending: card['pending'], score: card['score'],
    subscores: Object.entries(card['subscores'] as Record<string, number>).map(([name, value]) => ({ name, value })),
    hit1: Math.round(Number(card['hit1']) * 100), hit5: Math.round(Number(card['hit5']) * 100),
    // Cards made before probes were bounded have no `probed`: they probed every operation.
    probed: probedShown(card['probed'] as { operations: number; of: number } | undefined),
    hotspots: (card['hotspots'] as string[]).filter((id) => operations.has(id)).map(shown),
    unfound: (card['unfound'] as string[]).filter((id) => operations.has(id)).map(shown),
    lookAlikes: (card['lookAlikes'] as CardPair[]).filter((pair) => operations.has(pair.operation) && operations.has(pair.other)).slice(0, PAIRS_SHOWN).map((pair) => ({
      one: shown(pair.operation), other: shown(pair.other), probe: pair.probes[0]?.text ?? '',
      own: pair.apart.words.own.join(', '), theirs: pair.apart.words.other.join(', '),
    })),
  };
}

/** The probed share, said only when some operations were left out (a large service). */
function probedShown(probed: { operations: number; of: number } | undefined): string | undefined {
  return probed && probed.operations < probed.of ? `${probed.operations.toLocaleString('en')} of its ${probed.of.toLocaleString('en')} operations probed` : undefined;
}
