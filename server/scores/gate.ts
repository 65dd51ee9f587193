// The import's side of scores: the card a document would get once imported (candidate.ts: its
// records in place of the service's stored ones, findability asked against the version's other
// services too, by the index alone so that the import does not wait for embeddings), compared
// with the service's stored card, and the `minScore` gate that refuses an import scoring less,
// before it writes.
import { Conflict } from '../errors.ts';
import type { JsonObject } from '../json/values.ts';
import type { SearchIndexes } from '../search/indexes.ts';
import type { RecordStore } from '../store/records.ts';
import { candidateCard } from './candidate.ts';
import { SUBSCORES, type ScoreCard, type SubscoreName } from './card.ts';
import type { ScoreStore } from './store.ts';

export interface ScoreSummary { score: number; subscores: Record<SubscoreName, number> }
/** What a dry run reports: the card's score now (when the service has one) and after the import, and the difference. */
export interface ScoreDelta { before?: ScoreSummary; after: ScoreSummary; delta?: number }


/** How many fixes a failing subscore's detail names. */
const FIXES_NAMED = 3;

export function importScoring({ stores, searchIndexes, scores }: { stores: ReadonlyMap<string, RecordStore>; searchIndexes: SearchIndexes; scores: ScoreStore }) {
  return async (versionId: string, document: JsonObject, slug: string, minScore?: number): Promise<ScoreDelta> => {
    const [existing] = await stores.get('services')!.matching(versionId, { slug });
    const index = await searchIndexes.of(versionId);
    const card = await candidateCard(versionId, document, { slug }, { others: index.view, ...(existing ? { replaced: existing.id } : {}) });
    if (minScore !== undefined && card.score < minScore) throw refusal(card, minScore);
    const stored = existing && (await scores.of(versionId, existing.id))?.card;
    const after = summaryOf(card);
    return stored ? { before: summaryOf(stored), after, delta: after.score - stored.score } : { after };
  };
}

/** The refusal: the score, then each subscore below the minimum with its most frequent fixes. */
function refusal(card: ScoreCard, minScore: number): Conflict {
  const failing = SUBSCORES.filter((name) => card.subscores[name] < minScore);
  return new Conflict([
    { field: 'score', message: `the service would score ${card.score}, below minScore ${minScore}` },
    ...failing.map((name) => ({ field: `subscores/${name}`, message: `${name} ${card.subscores[name]}: ${commonFixes(card, name).join('; ') || 'see the dry run\'s card'}` })),
  ]);
}

function commonFixes(card: ScoreCard, name: SubscoreName): string[] {
  const counts = new Map<string, number>();
  for (const operation of card.operations) {
    // Fixes naming parameters or probes differ per operation; their first words are what to do.
    for (const fix of operation.fixes[name] ?? []) {
      const gist = fix.split(/[:(]/)[0]!.trim();
      counts.set(gist, (counts.get(gist) ?? 0) + 1);
    }
  }
  return [...counts].sort((a, b) => b[1] - a[1]).slice(0, FIXES_NAMED).map(([fix, count]) => `${fix} (${count} operations)`);
}

function summaryOf(card: ScoreCard): ScoreSummary {
  return { score: card.score, subscores: card.subscores };
}
