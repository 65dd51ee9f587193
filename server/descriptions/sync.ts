// Import as a sync: the records a document maps to are matched with the stored ones by natural
// key; unchanged ones are left alone (their updatedAt stays), changed ones replaced, new ones
// created, and the service's records the document no longer has deleted. The plan is made
// whole in memory first, then written collection by collection in bulk; every write is an
// idempotent upsert or delete, so an import cut short is completed by running it again.
import { Conflict, InvalidRequest, PayloadTooLarge, type ApiError } from '../errors.ts';
import { recordProblem, type RecordLimits, type RecordProblem } from '../store/record-cost.ts';
import { newId } from '../ids.ts';
import type { Fields } from '../records/record-body.ts';
import { stablePositions } from '../ownership/document-order.ts';
import { MARK, MARKED_SERVICE, markOf, type Mark } from '../store/mark.ts';
import { recordsOfService, SERVICES } from '../ownership/service-records.ts';
import { keyOf } from '../schemas/record-keys.ts';
import type { CompiledCollection } from '../schemas/registry.ts';
import { NaturalKeyTaken, type CatalogRecord, type HeldWrite, type RecordStore } from '../store/records.ts';
import { isObject, residual, sameJson, type JsonObject } from '../json/values.ts';
import { placements, type Placement } from './map.ts';
import { Slices } from './slices.ts';
import { fieldsCarried, mappedKinds, renderRecord } from './kinds.ts';
import { partsOf, SERVICE_PARTS, ServiceParts } from './service-parts.ts';
import type { ImportedRecords, ServiceRecords } from './imported-records.ts';
import { storeOf } from '../store/stores.ts';
import type { ImportAnswer, ImportWarning, RecordCounts } from '../schemas/generated/types.ts';

export type Counts = RecordCounts;
export type Warning = ImportWarning;

export interface ImportReport {
  created: boolean;
  /** The answer (schemas/api/import-report.json), but the changes report a review adds. */
  body: Omit<ImportAnswer, 'changes'>;
  /** What the import wrote, as stored, under the one revision it gave the version; none for a dry run or when nothing was written. */
  written?: HeldWrite;
}

/** What an import will write, whole, before it writes (for a review that may refuse it). */
export interface ImportPlan {
  serviceId: string;
  /** The kinds of a service's records the import maps, parents first (mappedKinds). */
  kinds: readonly CompiledCollection[];
  /** The records before the import that may be the service's (its own, and the version's unmarked ones), by collection. */
  existing: ReadonlyMap<string, readonly CatalogRecord[]>;
  inserts: ReadonlyMap<string, readonly CatalogRecord[]>;
  replaces: ReadonlyMap<string, readonly CatalogRecord[]>;
  deletes: ReadonlyMap<string, readonly string[]>;
}

export interface ImportTarget {
  stores: ReadonlyMap<string, RecordStore>;
  versionId: string;
  projectId: string;
  /** What one record may cost, as for a request body (README, Limits). */
  limits: RecordLimits;
  /** The records this process's last imports left (imported-records.ts); absent: always read. */
  kept?: ImportedRecords;
}

export function slugOf(title: string): string {
  return title.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'service';
}

export interface ImportOptions {
  /** The slug of the service to import into (checked by the caller); default: one made from the title. */
  service?: string;
  dryRun: boolean;
  /** Sees the plan inside the import's lock, before any write (dry run or not); throwing refuses the import. */
  review?: (plan: ImportPlan) => Promise<void>;
  /** Called once the plan writes something, before the first write; answers the revision the write is to commit under (what is recorded with it waits for that revision). */
  beforeWrite?: (plan: ImportPlan) => Promise<string>;
}

export async function importDocument(target: ImportTarget, document: JsonObject, options: ImportOptions): Promise<ImportReport> {
  const title = isObject(document['info']) && typeof document['info']['title'] === 'string' ? document['info']['title'] : '';
  const slug = options.service ?? slugOf(title);
  // Imports of one service run one at a time (in this process): under the service's natural key.
  return storeOf(target.stores, 'services').exclusiveKey(target.versionId, { slug }, () => syncAdopting(target, document, slug, options));
}

/** Passes of a sync that met records created under its natural keys while it wrote, before it gives up (409). */
const PASSES = 5;

/**
 * A record created by another request under a natural key this import also plans (a `POST
 * …/paths` racing it) refuses the import's write. The sync is by natural key, so that record is
 * the one the document describes: the sync runs again, finds it and adopts it (replaces it,
 * keeping its id), and completes what the cut-short pass left, as any re-run does.
 */
async function syncAdopting(target: ImportTarget, document: JsonObject, slug: string, options: ImportOptions): Promise<ImportReport> {
  const written: Written = new Map();
  for (let pass = 1; ; pass++) {
    try {
      // The review judges the import against the catalog as it was: the first pass's plan, not a re-run's remainder.
      return await sync(target, document, slug, pass === 1 ? options : { ...options, review: undefined, beforeWrite: undefined }, written);
    } catch (error) {
      if (!(error instanceof KeyTakenWhileWriting) || pass === PASSES) throw error instanceof KeyTakenWhileWriting ? error.conflict : error;
    }
  }
}

/** What earlier passes of one import wrote, by `collection:id`, so the report counts it as theirs. */
type Written = Map<string, 'created' | 'updated'>;

class KeyTakenWhileWriting extends Error {
  readonly conflict: Conflict;
  constructor(conflict: Conflict) {
    super('natural key taken while the import wrote');
    this.conflict = conflict;
  }
}

async function sync(target: ImportTarget, document: JsonObject, slug: string, { dryRun, review, beforeWrite }: ImportOptions, written: Written): Promise<ImportReport> {
  const store = (name: string): RecordStore => storeOf(target.stores, name);
  // Parents first: the order of the writes (deletes go the other way). A kind with no OpenAPI
  // mapping (kinds.ts) is neither read nor written: its records stay as they are.
  const kinds = mappedKinds([...target.stores.values()].map(({ collection }) => collection));
  const names = kinds.map(({ name }) => name);
  const recalled = await target.kept?.recall(target.versionId, slug);
  const existing = recalled?.records ?? await readService(target, names, slug);
  const serviceId = existing.get(SERVICES)?.[0]?.id ?? newId(store(SERVICES).collection.idPrefix);
  const byKey = new Map<string, Map<string, CatalogRecord>>();
  for (const [name, records] of existing) byKey.set(name, new Map(records.map((record) => [importKey(store(name).collection, record), record])));

  const warnings: Warning[] = [];
  const changes = Object.fromEntries(names.map((name) => [name, { created: 0, updated: 0, deleted: 0, unchanged: 0 }])) as Record<string, Counts>;
  const inserts = new Map<string, CatalogRecord[]>(names.map((name) => [name, []]));
  const replaces = new Map<string, CatalogRecord[]>(names.map((name) => [name, []]));
  const placed = new Map<string, Map<string, string>>(names.map((name) => [name, new Map()]));
  const pointers = new Map<string, string>();
  const beyondLimits: Refused[] = [];
  // Every record the document makes, in document order; positions are given once all are known.
  const planned: { name: string; fields: Fields; mark: Mark; before: CatalogRecord | undefined }[] = [];

  const place = (placement: Placement): string | undefined => {
    const { collection: name, original } = placement;
    const collection = store(name).collection;
    const mark: Mark = { service: serviceId, order: 0, ...(placement.generated ? { generated: placement.generated } : {}) };
    // The fields no mapping names come from the object's `x-catalog-fields` (kinds.ts).
    const fields: Fields = { ...definedFields(placement.fields), ...fieldsCarried(collection, original, placement.fields), versionId: target.versionId, kvStorage: { [MARK]: mark } };
    if (name === 'services') fields['id'] = serviceId;
    fields['kvStorage'] = { ...residual(original, renderRecord(collection, fields)), [MARK]: mark };
    const key = importKey(collection, fields);
    const already = placed.get(name)!.get(key);
    if (already) {
      warnings.push({ pointer: placement.pointer, message: `repeats the ${collection.record} of ${key} of an earlier object; left out` });
      return already;
    }
    const before = byKey.get(name)!.get(key);
    fields['id'] ??= before?.id ?? newId(collection.idPrefix);
    // What the catalog set and no document holds (a Service's traffic state) stays as stored.
    for (const field of collection.keptOnImport) if (before?.[field] !== undefined) fields[field] = before[field];
    // Before validation, as for a body: the schema checks recurse, and the limits bound them.
    const beyond = recordProblem(fields, target.limits);
    if (beyond) {
      beyondLimits.push({ pointer: placement.pointer, record: collection.record, problem: beyond });
      return undefined;
    }
    const problems = collection.checkRecord(fields);
    if (problems.length > 0) {
      for (const problem of problems) warnings.push({ pointer: placement.pointer, message: `cannot be carried as a ${collection.record}: ${problem.field} ${problem.message}` });
      return undefined;
    }
    placed.get(name)!.set(key, fields['id'] as string);
    pointers.set(`${name}:${fields['id'] as string}`, placement.pointer);
    planned.push({ name, fields, mark, before });
    return fields['id'] as string;
  };
  // A record at a time, pausing between slices: other requests are served while a large description is planned.
  const slices = new Slices();
  const steps = placements(document, { slug, organizationId: target.projectId });
  for (let step = steps.next(); !step.done; step = steps.next(place(step.value))) await slices.pause();
  if (beyondLimits.length > 0) throw refusal(beyondLimits);

  // Stored records keep their positions where the document keeps their order, so an insertion
  // rewrites only the new records (document-order.ts); then each record is compared whole.
  const positions = stablePositions(planned.map(({ before }) => (before ? markOf(before)?.order : undefined)));
  for (const [index, { name, fields, mark, before }] of planned.entries()) {
    await slices.pause();
    mark.order = positions[index]!;
    if (before && sameJson(stored(before), fields)) {
      const earlier = written.get(`${name}:${fields['id'] as string}`);
      changes[name]![earlier ?? 'unchanged']++;
    } else {
      changes[name]![before ? 'updated' : 'created']++;
      (before ? replaces : inserts).get(name)!.push(fields as CatalogRecord);
    }
  }

  const owned = recordsOfService(kinds, serviceId, existing);
  const deletes = new Map<string, string[]>();
  for (const name of names) {
    const kept = new Set(placed.get(name)!.values());
    const gone = (owned.get(name) ?? []).filter((record) => !kept.has(record.id)).map((record) => record.id);
    changes[name]!.deleted = gone.length;
    deletes.set(name, gone);
  }

  // The webhooks, beside the Service record (service-parts.ts), counted as a collection of their own.
  const parts = await new ServiceParts(store(SERVICES).db).plan(target.versionId, serviceId, partsOf(document));
  changes[SERVICE_PARTS] = parts.counts;

  await review?.({ serviceId, kinds, existing, inserts, replaces, deletes });
  let held: HeldWrite | undefined;
  if (!dryRun) {
    const now = new Date();
    // One revision for the whole import, given after its writes whatever happened to them: one
    // change listed on the version, which the search index applies from the records below.
    const touched = names.filter((name) => inserts.get(name)!.length + replaces.get(name)!.length + deletes.get(name)!.length > 0);
    const ids = touched.flatMap((name) => [...inserts.get(name)!, ...replaces.get(name)!].map((record) => record.id).concat(deletes.get(name)!));
    let token = touched.length > 0 ? await beforeWrite?.({ serviceId, kinds, existing, inserts, replaces, deletes }) : undefined;
    try {
      for (const name of names) {
        for (const [records, kind] of [[inserts, 'created'], [replaces, 'updated']] as const) {
          for (const record of records.get(name)!) if (!written.has(`${name}:${record.id}`)) written.set(`${name}:${record.id}`, kind);
        }
        try {
          await store(name).bulk(target.versionId, { insert: inserts.get(name)!, replace: replaces.get(name)! }, now, { revision: false });
        } catch (error) {
          if (!(error instanceof NaturalKeyTaken)) throw error;
          throw new KeyTakenWhileWriting(keyConflict(store(name), error, pointers.get(`${name}:${error.refused?.id}`)));
        }
      }
      await parts.write();
      for (const name of [...names].reverse()) await store(name).bulk(target.versionId, { delete: deletes.get(name)! }, now, { revision: false });
    } catch (error) {
      target.kept?.forget(target.versionId, slug);
      throw error;
    } finally {
      if (touched.length > 0) token = await store(SERVICES).written(target.versionId, touched, ids, token);
    }
    if (token !== undefined) {
      held = {
        token, collections: touched,
        records: new Map(touched.map((name) => [name, [...inserts.get(name)!, ...replaces.get(name)!].map((record) => store(name).asStored(record, now))])),
        deleted: new Map(touched.map((name) => [name, deletes.get(name)!])),
      };
      await target.kept?.keepWritten(target.versionId, slug, recalled?.revision, existing, held);
    }
  }
  // Nothing written (a dry run, an unchanged document): the records are the version's still.
  if (!held) target.kept?.keep(target.versionId, slug, recalled?.revision, existing);
  return {
    created: !dryRun && changes['services']!.created > 0,
    body: { service: { id: serviceId, slug }, dryRun, records: changes, warnings },
    ...(held && { written: held }),
  };
}

/**
 * The records an import plans from. Only the service's own are read (reading the whole version made
 * an import cost what the whole version held): the service by its slug, then each kind's records marked as the
 * service's or unmarked (made over HTTP); the other services' records are marked as theirs.
 */
async function readService(target: ImportTarget, names: readonly string[], slug: string): Promise<ServiceRecords> {
  const services = await storeOf(target.stores, SERVICES).matching(target.versionId, { slug });
  const serviceId = services[0]?.id;
  const existing = new Map<string, readonly CatalogRecord[]>();
  for (const name of names) {
    // A service not there yet has no records marked as its own: only the unmarked ones are read.
    existing.set(name, name === SERVICES ? services : await storeOf(target.stores, name).markedOrUnmarked(target.versionId, MARKED_SERVICE, serviceId ?? ''));
  }
  return existing;
}

/** 409 naming the object of the document whose record's natural key another record took, and that record. */
function keyConflict(store: RecordStore, taken: NaturalKeyTaken, pointer: string | undefined): Conflict {
  const { naturalKey, record } = store.collection;
  const values = naturalKey.map((field) => JSON.stringify(taken.refused?.[field] ?? null)).join(', ');
  return new Conflict([{
    field: pointer ?? '/',
    message: `its ${record}'s ${naturalKey.join(', ')} (${values}) ${taken.holder ? `is ${record} ${taken.holder}'s` : 'is taken'}: created in this version while the import wrote, again and again; import again to adopt it`,
  }]);
}

interface Refused { pointer: string; record: string; problem: RecordProblem }

/** The document refused whole, each record beyond a limit named: 413 when all are too large, else 400. */
function refusal(refused: readonly Refused[]): ApiError {
  const details = refused.map(({ pointer, record, problem }) => ({
    field: pointer,
    message: problem.limit === undefined
      ? `makes a ${record} record whose ${problem.field} ${problem.message}`
      : `makes a ${record} record that ${problem.message} (${problem.limit})${problem.field === '/' ? '' : `, at ${problem.field}`}`,
  }));
  return refused.every(({ problem }) => problem.tooLarge) ? new PayloadTooLarge(details) : new InvalidRequest(details);
}

/** The key the sync matches a record by: its collection's natural key, else its declared import key. */
function importKey(collection: CompiledCollection, record: Fields): string {
  if (collection.importKey.length === 0) throw new Error(`${collection.name}: no natural key or import key to import by`);
  return keyOf(collection.importKey, record);
}

/** A stored record as fields to compare with a planned one. */
function stored(record: CatalogRecord): Fields {
  const { updatedAt: _updatedAt, ...fields } = record;
  return fields;
}

function definedFields(fields: Fields): Fields {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

