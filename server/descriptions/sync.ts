// Import as a sync: the records a document maps to are matched with the stored ones by natural
// key; unchanged ones are left alone (their updatedAt stays), changed ones replaced, new ones
// created, and the service's records the document no longer has deleted. The plan is made
// whole in memory first, then written collection by collection in bulk; every write is an
// idempotent upsert or delete, so an import cut short is completed by running it again.
import { newId } from '../ids.ts';
import type { Fields } from '../operations/record-body.ts';
import { RecordLocks } from '../store/locks.ts';
import type { CatalogRecord, RecordStore } from '../store/records.ts';
import { isObject, residual, sameJson, type JsonObject } from './json.ts';
import { MARK, markOf, naturalKey, type Mark } from './keys.ts';
import { mapDocument, type Placement } from './map.ts';
import { RENDER } from './render.ts';
import { recordsOfService } from './service-records.ts';

export interface Counts { created: number; updated: number; deleted: number; unchanged: number }
export interface Warning { pointer: string; message: string }

export interface ImportReport {
  created: boolean;
  body: {
    service: { id: string; slug: string };
    dryRun: boolean;
    changes: Record<string, Counts>;
    warnings: Warning[];
  };
}

export interface ImportTarget {
  stores: ReadonlyMap<string, RecordStore>;
  versionId: string;
  projectId: string;
}

/** Parents before children: the order of the writes, so a cut-short import leaves no orphans it cannot find again. */
export const IMPORTED_COLLECTIONS = [
  'services', 'resources', 'security-schemes', 'headers', 'examples',
  'paths', 'operations', 'parameters', 'requests', 'responses', 'servers',
] as const;

// Imports of one service run one at a time (in this process).
const importLocks = new RecordLocks();

export function slugOf(title: string): string {
  return title.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'service';
}

/** `options.service`: the slug of the service to import into (checked by the caller); default: one made from the title. */
export async function importDocument(target: ImportTarget, document: JsonObject, options: { service?: string; dryRun: boolean }): Promise<ImportReport> {
  const title = isObject(document['info']) && typeof document['info']['title'] === 'string' ? document['info']['title'] : '';
  const slug = options.service ?? slugOf(title);
  return importLocks.run(`${target.versionId}:${slug}`, () => sync(target, document, slug, options.dryRun));
}

async function sync(target: ImportTarget, document: JsonObject, slug: string, dryRun: boolean): Promise<ImportReport> {
  const store = (name: string): RecordStore => target.stores.get(name)!;
  const existing = new Map<string, CatalogRecord[]>();
  for (const name of IMPORTED_COLLECTIONS) existing.set(name, await store(name).all(target.versionId));
  const byKey = new Map<string, Map<string, CatalogRecord>>();
  for (const [name, records] of existing) byKey.set(name, new Map(records.map((record) => [naturalKey(store(name).collection, record), record])));

  const found = byKey.get('services')!.get(naturalKey(store('services').collection, { slug }));
  const serviceId = found?.id ?? newId(store('services').collection.idPrefix);
  const warnings: Warning[] = [];
  const changes = Object.fromEntries(IMPORTED_COLLECTIONS.map((name) => [name, { created: 0, updated: 0, deleted: 0, unchanged: 0 }])) as Record<string, Counts>;
  const inserts = new Map<string, CatalogRecord[]>(IMPORTED_COLLECTIONS.map((name) => [name, []]));
  const replaces = new Map<string, CatalogRecord[]>(IMPORTED_COLLECTIONS.map((name) => [name, []]));
  const placed = new Map<string, Map<string, string>>(IMPORTED_COLLECTIONS.map((name) => [name, new Map()]));
  let order = 0;

  const place = (placement: Placement): string | undefined => {
    const { collection: name, original } = placement;
    const collection = store(name).collection;
    const mark: Mark = { service: serviceId, order: order++, ...(placement.generated ? { generated: placement.generated } : {}) };
    const fields: Fields = { ...definedFields(placement.fields), versionId: target.versionId, kvStorage: { [MARK]: mark } };
    if (name === 'services') fields['id'] = serviceId;
    fields['kvStorage'] = { ...residual(original, RENDER[name]!(fields)), [MARK]: mark };
    const key = naturalKey(collection, fields);
    const already = placed.get(name)!.get(key);
    if (already) {
      warnings.push({ pointer: placement.pointer, message: `repeats the ${collection.record} of ${key} of an earlier object; left out` });
      return already;
    }
    const before = byKey.get(name)!.get(key);
    fields['id'] ??= before?.id ?? newId(collection.idPrefix);
    const problems = collection.checkRecord(fields);
    if (problems.length > 0) {
      for (const problem of problems) warnings.push({ pointer: placement.pointer, message: `cannot be carried as a ${collection.record}: ${problem.field} ${problem.message}` });
      return undefined;
    }
    placed.get(name)!.set(key, fields['id'] as string);
    if (before && sameJson(stored(before), fields)) {
      changes[name]!.unchanged++;
    } else {
      changes[name]![before ? 'updated' : 'created']++;
      (before ? replaces : inserts).get(name)!.push(fields as CatalogRecord);
    }
    return fields['id'] as string;
  };
  mapDocument(document, { slug, organizationId: target.projectId }, place);

  const owned = recordsOfService(serviceId, existing);
  const deletes = new Map<string, string[]>();
  for (const name of IMPORTED_COLLECTIONS) {
    const kept = new Set(placed.get(name)!.values());
    const gone = (owned.get(name) ?? []).filter((record) => !kept.has(record.id)).map((record) => record.id);
    changes[name]!.deleted = gone.length;
    deletes.set(name, gone);
  }

  if (!dryRun) {
    const now = new Date();
    for (const name of IMPORTED_COLLECTIONS) await store(name).bulk(target.versionId, { insert: inserts.get(name)!, replace: replaces.get(name)! }, now);
    for (const name of [...IMPORTED_COLLECTIONS].reverse()) await store(name).bulk(target.versionId, { delete: deletes.get(name)! }, now);
  }
  return {
    created: !found && !dryRun,
    body: { service: { id: serviceId, slug }, dryRun, changes, warnings },
  };
}

/** A stored record as fields to compare with a planned one. */
function stored(record: CatalogRecord): Fields {
  const { updatedAt: _updatedAt, ...fields } = record;
  return fields;
}

function definedFields(fields: Fields): Fields {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

