// What changes for clients between two states of the catalog, per service, as a client sees it:
// each service exported as OpenAPI (server/descriptions/export.ts) on both sides, then compared
// (compare.ts). Computed on demand, never stored (decisions.md, "Traffic insights and changes").
import { RecordNotFound } from '../errors.ts';
import { exportService } from '../descriptions/export.ts';
import type { ImportPlan } from '../descriptions/sync.ts';
import { serviceKinds } from '../ownership/service-records.ts';
import type { CompiledCollection } from '../schemas/registry.ts';
import type { CatalogRecord, RecordStore } from '../store/records.ts';
import { byPlace, compareDocuments, type ServiceChange } from './compare.ts';
import { componentRef, refsIn } from '../json/pointer.ts';
import { isObject } from '../json/values.ts';
import { storeOf } from '../store/stores.ts';

export interface Change extends ServiceChange {
  service: { id: string; slug: string };
}

export interface ChangeReport {
  summary: { breaking: number; nonBreaking: number };
  changes: Change[];
}

/** A version's records, read once, in the shape the exporter reads them. */
export type Snapshot = ReadonlyMap<string, Pick<RecordStore, 'all' | 'collection'>>;

export async function snapshotOf(stores: ReadonlyMap<string, RecordStore>, versionId: string): Promise<Snapshot> {
  const kinds = serviceKinds([...stores.values()].map(({ collection }) => collection));
  const records = new Map<string, readonly CatalogRecord[]>();
  for (const { name } of kinds) records.set(name, await storeOf(stores, name).all(versionId));
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
    changes.push(...serviceChanges(slug, was && { service: was, document: await documentOf(before, was) }, is && { service: is, document: await documentOf(after, is) }));
  }
  return reportOf(changes);
}

/** A service on one side of a comparison: its record and its export. */
export interface ServiceSide { service: CatalogRecord; document: Record<string, unknown> }

/**
 * The changes of one service (by slug) from `before` to `after`, given its export on each side
 * (absent: the service is not there, an empty API). For callers that keep exports (the pages,
 * pages/exports.ts), so a comparison need not export both versions again.
 */
export function serviceChanges(slug: string, before: ServiceSide | undefined, after: ServiceSide | undefined): Change[] {
  const named = { id: (after ?? before)!.service.id, slug };
  const empty = (): Record<string, unknown> => ({ openapi: '3.1.0', info: { title: slug, version: '' }, paths: {} });
  const found = compareUnlessSame(before?.document ?? empty(), after?.document ?? empty());
  // A service that did not exist has no client to break (its security and servers are new too).
  return found.map((change) => ({ service: named, ...change, ...(before ? {} : { level: 'non-breaking' as const }) }));
}

/**
 * compareDocuments with what cannot differ left out: nothing when the documents are the same
 * (a service against itself: the library takes 39 s on GitHub's to find nothing), and otherwise
 * only the paths that differ, or whose referenced components (followed through their own
 * references) differ. A change is found under the path where it is (or under `servers` and
 * `security`, which stay): a path whose item and references are the same on both sides holds none.
 */
export function compareUnlessSame(before: Record<string, unknown>, after: Record<string, unknown>): ServiceChange[] {
  if (before === after || JSON.stringify(before) === JSON.stringify(after)) return [];
  return compareDocuments(...withoutSamePaths(before, after));
}

function withoutSamePaths(before: Record<string, unknown>, after: Record<string, unknown>): [Record<string, unknown>, Record<string, unknown>] {
  if (!isObject(before['paths']) || !isObject(after['paths'])) return [before, after];
  const [was, is] = [before['paths'], after['paths']];
  const sameComponents = new Map<string, boolean>();
  // Whether everything `value` references is the same on both sides (a reference other than to a component: never).
  const referencesSame = (value: unknown, seen: Set<string>): boolean => {
    for (const { ref } of refsIn(value)) {
      const named = componentRef(ref);
      if (!named) return false;
      const key = `${named.section}/${named.name}`;
      if (seen.has(key)) continue;
      seen.add(key);
      let same = sameComponents.get(key);
      if (same === undefined) {
        const [old, current] = [componentOf(before, named.section, named.name), componentOf(after, named.section, named.name)];
        same = old !== undefined && JSON.stringify(old) === JSON.stringify(current);
        sameComponents.set(key, same);
      }
      if (!same || !referencesSame(componentOf(before, named.section, named.name), seen)) return false;
    }
    return true;
  };
  const same = new Set(Object.keys(was).filter((path) => Object.hasOwn(is, path) && JSON.stringify(was[path]) === JSON.stringify(is[path]) && referencesSame(was[path], new Set())));
  if (same.size === 0) return [before, after];
  const left = (paths: Record<string, unknown>) => Object.fromEntries(Object.entries(paths).filter(([path]) => !same.has(path)));
  return [{ ...before, paths: left(was) }, { ...after, paths: left(is) }];
}

function componentOf(document: Record<string, unknown>, section: string, name: string): unknown {
  const components = isObject(document['components']) ? document['components'] : {};
  const entries = isObject(components[section]) ? components[section] : {};
  return Object.hasOwn(entries, name) ? entries[name] : undefined;
}

export function reportOf(changes: Change[]): ChangeReport {
  const sorted = [...changes].sort((a, b) => (a.service.slug < b.service.slug ? -1 : a.service.slug > b.service.slug ? 1 : byPlace(a, b)));
  const breaking = sorted.filter((change) => change.level === 'breaking').length;
  return { summary: { breaking, nonBreaking: sorted.length - breaking }, changes: sorted };
}

async function servicesOf(snapshot: Snapshot): Promise<Map<string, CatalogRecord>> {
  const services = await storeOf(snapshot, 'services').all('');
  return new Map(services.map((record) => [String(record['slug']), record]));
}

/** The service's document on that side. */
function documentOf(snapshot: Snapshot, service: CatalogRecord): Promise<Record<string, unknown>> {
  return exportService(snapshot, '', service);
}

/** Records in hand, of each of `kinds`, as a snapshot. */
export function snapshotFrom(kinds: readonly CompiledCollection[], records: ReadonlyMap<string, readonly CatalogRecord[]>): Snapshot {
  return new Map(kinds.map((collection) => [collection.name, { collection, all: async () => [...records.get(collection.name) ?? []] }]));
}
