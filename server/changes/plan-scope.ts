// The part of an import's plan its changes report needs. Graph beta's dry run with one operation
// removed exported and compared 22,361 operations on each side to find that one, when
// a change to a record beneath a path (an operation, its parameters, bodies, responses, servers,
// the path itself) can only show under that path. So both sides are cut to the paths the plan's
// records lead to, with every record of the other kinds, which the plan leaves as they were and
// the comparison narrows by itself (compare.ts). A plan that changes anything else (the Service,
// a Resource, a Header, a security scheme, a server of the whole service) may show under any path:
// it is compared whole, as are the few versions whose records made over HTTP the export takes by
// name from the whole version (a Resource or a security scheme of no service).
import type { ImportPlan } from '../descriptions/sync.ts';
import { fieldAt } from '../schemas/record-keys.ts';
import type { CompiledCollection } from '../schemas/registry.ts';
import type { CatalogRecord } from '../store/records.ts';

const PATHS = 'paths';

/** The plan with its records cut to the paths it touches; the plan itself when it may touch more. */
export function scopedPlan(plan: ImportPlan): ImportPlan {
  if (!plan.kinds.some(({ name }) => name === PATHS) || takenByName(plan)) return plan;
  const paths = new PathFinder(plan);
  const touched = new Set<string>();
  for (const kind of plan.kinds) {
    const deleted = new Set(plan.deletes.get(kind.name) ?? []);
    const changed = [
      ...plan.inserts.get(kind.name) ?? [],
      ...plan.replaces.get(kind.name) ?? [],
      // A replaced record's place before (the same id) and a deleted one's.
      ...(plan.existing.get(kind.name) ?? []).filter((record) => deleted.has(record.id) || paths.replaced(kind.name, record.id)),
    ];
    for (const record of changed) {
      const path = paths.of(kind, record);
      if (path === undefined) return plan;
      touched.add(path);
    }
  }
  if (touched.size === 0) return plan;
  const kept = (kind: CompiledCollection, record: CatalogRecord): boolean => {
    const path = paths.of(kind, record);
    return path === undefined || touched.has(path);
  };
  const cut = <T>(records: ReadonlyMap<string, readonly T[]>, keep: (kind: CompiledCollection, item: T) => boolean): Map<string, T[]> =>
    new Map(plan.kinds.map((kind) => [kind.name, (records.get(kind.name) ?? []).filter((item) => keep(kind, item))]));
  const existing = cut(plan.existing, kept);
  const existingIds = new Map([...existing].map(([name, records]) => [name, new Set(records.map(({ id }) => id))]));
  return {
    ...plan,
    existing,
    inserts: cut(plan.inserts, kept),
    replaces: cut(plan.replaces, kept),
    deletes: cut(plan.deletes, (kind, id) => existingIds.get(kind.name)!.has(id)),
  };
}

/**
 * The export takes a Resource or a security scheme of no service by name for the references and
 * requirements it renders: cut to some paths, a side could lose one the whole service still names.
 */
function takenByName(plan: ImportPlan): boolean {
  const ownerless = (name: string, owned: (record: CatalogRecord) => boolean) => (plan.existing.get(name) ?? []).some((record) => !owned(record));
  const resources = plan.kinds.find(({ name }) => name === 'resources');
  return ownerless('security-schemes', (record) => typeof record['serviceId'] === 'string')
    || (resources?.owner !== undefined && ownerless('resources', (record) => fieldAt(record, resources.owner!) !== undefined));
}

/** The path a record is beneath, through its references (schemas/collections.json), on either side of the plan. */
class PathFinder {
  readonly #records = new Map<string, Map<string, CatalogRecord>>();
  readonly #replaced = new Map<string, Set<string>>();
  readonly #kinds: ReadonlyMap<string, CompiledCollection>;
  readonly #found = new Map<CatalogRecord, string | undefined>();

  constructor(plan: ImportPlan) {
    this.#kinds = new Map(plan.kinds.map((kind) => [kind.name, kind]));
    for (const { name } of plan.kinds) {
      const byId = new Map((plan.existing.get(name) ?? []).map((record) => [record.id, record]));
      // A parent replaced keeps its id: either side's record leads to the same path, which the plan's own record says.
      for (const record of [...plan.inserts.get(name) ?? [], ...plan.replaces.get(name) ?? []]) byId.set(record.id, record);
      this.#records.set(name, byId);
      this.#replaced.set(name, new Set((plan.replaces.get(name) ?? []).map(({ id }) => id)));
    }
  }

  replaced(kind: string, id: string): boolean {
    return this.#replaced.get(kind)?.has(id) === true;
  }

  /** The path's id; undefined for a record beneath none (a Service, a Resource, a server of the whole service). */
  of(kind: CompiledCollection, record: CatalogRecord): string | undefined {
    if (kind.name === PATHS) return record.id;
    if (this.#found.has(record)) return this.#found.get(record);
    let path: string | undefined;
    for (const [field, target] of kind.references) {
      const parent = typeof record[field] === 'string' ? this.#records.get(target)?.get(record[field]) : undefined;
      const parentKind = this.#kinds.get(target);
      path = parent && parentKind ? this.of(parentKind, parent) : undefined;
      if (path !== undefined) break;
    }
    this.#found.set(record, path);
    return path;
  }
}
