// What changes for clients between two states of the catalog, per service, as a client sees it:
// each service exported as OpenAPI (server/descriptions/export.ts) on both sides, then compared
// (compare.ts). Computed on demand, never stored (decisions.md, "Traffic insights and changes").
import { RecordNotFound } from '../errors.ts';
import { exportService } from '../descriptions/export.ts';
import type { ImportPlan } from '../descriptions/sync.ts';
import { recordsOfService, serviceKinds } from '../ownership/service-records.ts';
import { mappedKinds } from '../descriptions/kinds.ts';
import type { CompiledCollection } from '../schemas/registry.ts';
import type { CatalogRecord, RecordStore } from '../store/records.ts';
import { byPlace, type ServiceChange } from './compare.ts';
import { compareOffThread } from './comparer.ts';
import { collectionStore, storeOf } from '../store/stores.ts';

export interface Change extends ServiceChange {
  service: { id: string; slug: string };
}

export interface ChangeReport {
  summary: { breaking: number; nonBreaking: number; planned: number };
  changes: Change[];
}

/** A version's records, read once, in the shape the exporter reads them. */
export type Snapshot = ReadonlyMap<string, Pick<RecordStore, 'all' | 'collection'>>;

export async function snapshotOf(stores: ReadonlyMap<string, RecordStore>, versionId: string): Promise<Snapshot> {
  const kinds = serviceKinds([...stores.values()].map(({ collection }) => collection));
  const records = new Map<string, readonly CatalogRecord[]>();
  for (const { name } of kinds) records.set(name, await collectionStore(stores, name).all(versionId));
  return snapshotFrom(kinds, records);
}

/** The version as it will be once the import's plan is written. */
export function plannedSnapshot(plan: ImportPlan): Snapshot {
  const records = new Map<string, readonly CatalogRecord[]>();
  for (const { name } of plan.kinds) {
    const replaced = new Map((plan.replaces.get(name) ?? []).map((record) => [record.id, record]));
    const deleted = new Set(plan.deletes.get(name) ?? []);
    const kept = (plan.existing.get(name) ?? []).filter((record) => !deleted.has(record.id)).map((record) => replaced.get(record.id) ?? record);
    records.set(name, [...kept, ...(plan.inserts.get(name) ?? [])]);
  }
  return snapshotFrom(plan.kinds, records);
}

/**
 * The changes that take a client of `before` to `after`, for the services of either side that
 * `service` (slug or id; all when absent; 404 when neither side has it) names; services are
 * matched by slug, their natural key.
 */
export async function changesBetween(before: Snapshot, after: Snapshot, service?: string): Promise<ChangeReport> {
  const [old, current] = [await servicesOf(before), await servicesOf(after)];
  const slugs = [...new Set([...old.keys(), ...current.keys()])]
    .filter((slug) => service === undefined || slug === service || old.get(slug)?.id === service || current.get(slug)?.id === service)
    .sort();
  if (service !== undefined && slugs.length === 0) throw new RecordNotFound(storeOf(after, 'services').collection.notFound);
  const changes: Change[] = [];
  for (const slug of slugs) {
    const [was, is] = [old.get(slug), current.get(slug)];
    // The same records render the same document, which holds no change: neither is exported.
    if (was && is && await sameRecords(before, after, was, is)) continue;
    const found = await serviceChanges(slug, was && { service: was, document: await documentOf(before, was) }, is && { service: is, document: await documentOf(after, is) });
    // One by one: a spread passes each change as an argument, and 100,000 of them overflow the stack.
    for (const change of found) changes.push(change);
  }
  return reportOf(changes);
}

/** A service on one side of a comparison: its record and its export. */
interface ServiceSide { service: CatalogRecord; document: Record<string, unknown> }

/** The changes of one service (by slug) from `before` to `after`, given its export on each side (absent: the service is not there, an empty API). */
async function serviceChanges(slug: string, before: ServiceSide | undefined, after: ServiceSide | undefined): Promise<Change[]> {
  const named = { id: (after ?? before)!.service.id, slug };
  const empty = (): Record<string, unknown> => ({ openapi: '3.1.0', info: { title: slug, version: '' }, paths: {} });
  const found = await compareOffThread(before?.document ?? empty(), after?.document ?? empty());
  // A service that did not exist has no client to break (its security and servers are new too).
  return found.map((change) => ({ service: named, ...change, ...(before ? {} : { level: 'non-breaking' as const }) }));
}

export function reportOf(changes: Change[]): ChangeReport {
  const sorted = [...changes].sort((a, b) => (a.service.slug < b.service.slug ? -1 : a.service.slug > b.service.slug ? 1 : byPlace(a, b)));
  const breaking = sorted.filter((change) => change.level === 'breaking').length;
  const planned = sorted.filter((change) => change.lifecycle === 'removed_after_sunset').length;
  return { summary: { breaking, nonBreaking: sorted.length - breaking, planned }, changes: sorted };
}

async function servicesOf(snapshot: Snapshot): Promise<Map<string, CatalogRecord>> {
  const services = await storeOf(snapshot, 'services').all('');
  return new Map(services.map((record) => [String(record['slug']), record]));
}

/**
 * Whether the service's export is bound to be the same on both sides, seen in the records the
 * exporter renders it from (export.ts): the service's own records of each kind (same ids, in the
 * same order, the same fields but `versionId` and `updatedAt`, which it does not render), and the
 * version's Resources and security schemes, which it takes by name for references the service
 * holds none for. A version copy keeps ids, so a copy against its source is the same here (Graph
 * beta: its 300,000 records compared in seconds, where exporting and comparing took minutes), as
 * is a dry run that writes nothing. Any difference, the exports are made and compared.
 */
export async function sameRecords(before: Snapshot, after: Snapshot, was: CatalogRecord, is: CatalogRecord): Promise<boolean> {
  if (was.id !== is.id) return false;
  const kinds = mappedKinds([...before.values()].map(({ collection }) => collection));
  const names = kinds.map(({ name }) => name);
  if (names.join() !== mappedKinds([...after.values()].map(({ collection }) => collection)).map(({ name }) => name).join()) return false;
  const read = async (snapshot: Snapshot) => new Map(await Promise.all(names.map(async (name) => [name, await snapshot.get(name)!.all('')] as const)));
  const [old, current] = [await read(before), await read(after)];
  const [mine, theirs] = [recordsOfService(kinds, was.id, old), recordsOfService(kinds, is.id, current)];
  const lists = [
    ...names.map((name) => [mine.get(name) ?? [], theirs.get(name) ?? []] as const),
    ...VERSION_WIDE.filter((name) => names.includes(name)).map((name) => [old.get(name) ?? [], current.get(name) ?? []] as const),
  ];
  // Counts first: a record come or gone (a dry run that removes an operation) is told before any content is compared.
  return lists.every(([a, b]) => a.length === b.length) && lists.every(([a, b]) => a.every((record, index) => sameRendered(record, b[index]!)));
}

/** The kinds the exporter takes from the whole version (by name), not only from the service's records. */
const VERSION_WIDE = ['resources', 'security-schemes'];

/** Two records of one id with the same fields, but those that say which version holds them and when they were written. */
function sameRendered(a: CatalogRecord, b: CatalogRecord): boolean {
  if (a === b) return true;
  const { versionId: _a, updatedAt: _at, ...fieldsA } = a;
  const { versionId: _b, updatedAt: _bt, ...fieldsB } = b;
  return a.id === b.id && JSON.stringify(fieldsA) === JSON.stringify(fieldsB);
}

/** The service's document on that side. */
function documentOf(snapshot: Snapshot, service: CatalogRecord): Promise<Record<string, unknown>> {
  return exportService(snapshot, '', service);
}

/** Records in hand, of each of `kinds`, as a snapshot. */
export function snapshotFrom(kinds: readonly CompiledCollection[], records: ReadonlyMap<string, readonly CatalogRecord[]>): Snapshot {
  return new Map(kinds.map((collection) => [collection.name, { collection, all: async () => [...records.get(collection.name) ?? []] }]));
}
