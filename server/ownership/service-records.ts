// Which records belong to a service, as schemas/collections.json declares it: a Service owns
// the records whose references name it or a record it owns (paths → operations → parameters,
// requests, responses, servers; security schemes by `serviceId`), and those of the kinds that
// declare an `owner` field naming it (Resources, Headers, Examples: the import's marker). An
// import of the service syncs exactly these, its export renders them.
import { fieldAt } from '../schemas/record-keys.ts';
import type { CompiledCollection } from '../schemas/registry.ts';
import type { CatalogRecord } from '../store/records.ts';

/** The collection of the services themselves, the root every owned record leads to. */
export const SERVICES = 'services';

/**
 * The kinds a service's records are of, parents first (each after the kinds it refers to,
 * otherwise in collections.json order): the order an import writes in, so that one cut short
 * leaves no orphans it cannot find again. Deletes go the other way.
 */
export function serviceKinds(collections: Iterable<CompiledCollection>): CompiledCollection[] {
  const all = [...collections];
  const owned = new Set(all.some(({ name }) => name === SERVICES) ? [SERVICES] : []);
  for (let grew = true; grew;) {
    grew = false;
    for (const kind of all) {
      if (owned.has(kind.name) || !parentsOf(kind).some((parent) => owned.has(parent))) continue;
      owned.add(kind.name);
      grew = true;
    }
  }
  const ordered: CompiledCollection[] = [];
  const placed = new Set<string>();
  const ready = (kind: CompiledCollection): boolean => owned.has(kind.name) && !placed.has(kind.name)
    && parentsOf(kind).every((parent) => placed.has(parent) || parent === kind.name || !owned.has(parent));
  for (let next = all.find(ready); next; next = all.find(ready)) {
    ordered.push(next);
    placed.add(next.name);
  }
  if (ordered.length < owned.size) throw new Error(`schemas/collections.json: the references of ${[...owned].filter((name) => !placed.has(name)).join(', ')} go round in a circle`);
  return ordered;
}

/** The kinds a record of this kind may belong to a service through: what it refers to, and the services for an `owner` field. */
function parentsOf(kind: CompiledCollection): string[] {
  return [...kind.references.values(), ...(kind.owner === undefined ? [] : [SERVICES])];
}

/** The records of `all` (by collection) that belong to the service, by collection, for each of its kinds. */
export function recordsOfService(kinds: readonly CompiledCollection[], serviceId: string, all: ReadonlyMap<string, readonly CatalogRecord[]>): Map<string, CatalogRecord[]> {
  const owned = new Map<string, CatalogRecord[]>();
  const ids = new Map<string, ReadonlySet<unknown>>();
  for (const kind of kinds) {
    const belongs = kind.name === SERVICES
      ? (record: CatalogRecord) => record.id === serviceId
      : (record: CatalogRecord) => (kind.owner !== undefined && fieldAt(record, kind.owner) === serviceId)
        || [...kind.references].some(([field, target]) => ids.get(target)?.has(record[field]) === true);
    const records = (all.get(kind.name) ?? []).filter(belongs);
    owned.set(kind.name, records);
    ids.set(kind.name, new Set(records.map((record) => record.id)));
  }
  return owned;
}

/**
 * The security scheme a requirement of a service names: the service's own scheme of that name,
 * else the version-wide one (no owner: made over HTTP without `serviceId`); never another
 * service's, since two services may each have their own `api_key` (decisions.md, natural keys).
 */
export function schemeNamed(schemes: readonly CatalogRecord[], serviceId: string | undefined, name: string): CatalogRecord | undefined {
  return (serviceId === undefined ? undefined : schemes.find((record) => record['serviceId'] === serviceId && record['name'] === name))
    ?? schemes.find((record) => record['serviceId'] === undefined && record['name'] === name);
}
