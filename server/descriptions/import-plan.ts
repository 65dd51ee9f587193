// An import's plan, made without reading or writing anything: from the records a document maps
// to (map.ts) and the service's stored ones to what to insert, replace and delete, matched by
// natural key (else import key). Unchanged records are left alone (their updatedAt stays); a
// stored record keeps its id and its position where the document keeps its order.
import { InvalidRequest, PayloadTooLarge, type ApiError } from '../errors.ts';
import { recordProblem, type RecordLimits, type RecordProblem } from '../store/record-cost.ts';
import type { Fields } from '../records/record-body.ts';
import { stablePositions } from '../ownership/document-order.ts';
import { MARK, markOf, type Mark } from '../store/mark.ts';
import { recordsOfService, SERVICES } from '../ownership/service-records.ts';
import { extensionKinds } from '../ownership/extension-kinds.ts';
import { keyOf } from '../schemas/record-keys.ts';
import type { CompiledCollection } from '../schemas/registry.ts';
import type { CatalogRecord } from '../store/records.ts';
import { residual, sameJson, type JsonObject } from '../json/values.ts';
import { placements, type Placement } from './map.ts';
import { fieldsCarried, renderRecord } from './kinds.ts';
import type { ServicePart } from './service-parts.ts';
import type { ImportWarning, RecordCounts } from '../schemas/generated/types.ts';

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
  /** What the import keeps beside the Service record (webhooks, shared components: service-parts.ts), given to the reviews and the write's events. */
  parts?: readonly Omit<ServicePart, 'order'>[];
}

/** The plan with what the report says of it, and where in the document each record it writes stood. */
export interface PlannedImport extends ImportPlan {
  changes: Record<string, RecordCounts>;
  warnings: ImportWarning[];
  /** The JSON pointer of the object each planned record stands for, by `collection:id` (a conflict names it). */
  pointers: ReadonlyMap<string, string>;
}

export interface PlanInput {
  document: JsonObject;
  slug: string;
  versionId: string;
  projectId: string;
  /** The service-owned kinds the import maps, parents first (mappedKinds). */
  kinds: readonly CompiledCollection[];
  /** The records the service may have now (its own, and the version's unmarked ones), by collection. */
  existing: ReadonlyMap<string, readonly CatalogRecord[]>;
  /** What one record may cost (README, Limits). */
  limits: RecordLimits;
  /** A new record id with this prefix. */
  newId: (prefix: string) => string;
  /** What earlier passes of the same import wrote, by `collection:id`: the report counts those as theirs, not unchanged. */
  earlier?: ReadonlyMap<string, 'created' | 'updated'>;
}

/** A placement made a record: its kind, its fields, its mark and the stored record it replaces. */
interface Planned { name: string; fields: Fields; mark: Mark; before: CatalogRecord | undefined }

interface Refused { pointer: string; record: string; problem: RecordProblem }

/**
 * The plan of importing `document`. `pause` is awaited between records, so that other requests
 * are served while a large description is planned (slices.ts). Throws the refusal when a record
 * is beyond the limits.
 */
export async function planImport(input: PlanInput, pause: () => Promise<void> = async () => {}): Promise<PlannedImport> {
  const { kinds, existing } = input;
  const names = kinds.map(({ name }) => name);
  const byName = new Map(kinds.map((kind) => [kind.name, kind]));
  const serviceId = existing.get(SERVICES)?.[0]?.id ?? input.newId(byName.get(SERVICES)!.idPrefix);
  const byKey = new Map(kinds.map((kind) => [kind.name, new Map((existing.get(kind.name) ?? []).map((record) => [importKey(kind, record), record]))]));
  const warnings: ImportWarning[] = [];
  const placed = new Map<string, Map<string, string>>(names.map((name) => [name, new Map()]));
  const pointers = new Map<string, string>();
  const refused: Refused[] = [];
  // Every record the document makes, in document order; positions are given once all are known.
  const planned: Planned[] = [];

  const place = (placement: Placement): string | undefined => {
    const { collection: name, original } = placement;
    const collection = byName.get(name)!;
    const mark: Mark = { service: serviceId, order: 0, ...(placement.generated ? { generated: placement.generated } : {}) };
    // The fields no mapping names come from the object's `x-catalog-fields` (kinds.ts).
    const fields: Fields = { ...definedFields(placement.fields), ...fieldsCarried(collection, original, placement.fields), versionId: input.versionId, kvStorage: { [MARK]: mark } };
    if (name === SERVICES) fields['id'] = serviceId;
    fields['kvStorage'] = { ...residual(original, renderRecord(collection, fields)), [MARK]: mark };
    const key = importKey(collection, fields);
    const already = placed.get(name)!.get(key);
    if (already) {
      warnings.push({ pointer: placement.pointer, message: `repeats the ${collection.record} of ${key} of an earlier object; left out` });
      return already;
    }
    const before = byKey.get(name)!.get(key);
    fields['id'] ??= before?.id ?? input.newId(collection.idPrefix);
    // What the catalog set and no document holds (a Service's traffic state) stays as stored.
    for (const field of collection.keptOnImport) if (before?.[field] !== undefined) fields[field] = before[field];
    for (const field of collection.keptUnlessGiven) if (fields[field] === undefined && before?.[field] !== undefined) fields[field] = before[field];
    // Before validation, as for a body: the schema checks recurse, and the limits bound them.
    const beyond = recordProblem(fields, input.limits);
    if (beyond) {
      refused.push({ pointer: placement.pointer, record: collection.record, problem: beyond });
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
  const steps = placements(input.document, { slug: input.slug, organizationId: input.projectId }, extensionKinds(kinds));
  for (let step = steps.next(); !step.done; step = steps.next(place(step.value))) await pause();
  if (refused.length > 0) throw refusal(refused);

  const { changes, inserts, replaces } = await compared(names, planned, input.earlier, pause);
  const owned = recordsOfService(kinds, serviceId, existing);
  const deletes = new Map<string, string[]>();
  for (const name of names) {
    const kept = new Set(placed.get(name)!.values());
    const gone = (owned.get(name) ?? []).filter((record) => !kept.has(record.id)).map((record) => record.id);
    changes[name]!.deleted = gone.length;
    deletes.set(name, gone);
  }
  return { serviceId, kinds, existing, inserts, replaces, deletes, changes, warnings, pointers };
}

/**
 * Each planned record given its position, then compared whole with the one it replaces: stored
 * records keep their positions where the document keeps their order, so an insertion rewrites
 * only the new records (document-order.ts).
 */
async function compared(names: readonly string[], planned: readonly Planned[], earlier: PlanInput['earlier'], pause: () => Promise<void>) {
  const changes = Object.fromEntries(names.map((name) => [name, { created: 0, updated: 0, deleted: 0, unchanged: 0 }])) as Record<string, RecordCounts>;
  const inserts = new Map<string, CatalogRecord[]>(names.map((name) => [name, []]));
  const replaces = new Map<string, CatalogRecord[]>(names.map((name) => [name, []]));
  const positions = stablePositions(planned.map(({ before }) => (before ? markOf(before)?.order : undefined)));
  for (const [index, { name, fields, mark, before }] of planned.entries()) {
    await pause();
    mark.order = positions[index]!;
    if (before && sameJson(stored(before), fields)) {
      changes[name]![earlier?.get(`${name}:${fields['id'] as string}`) ?? 'unchanged']++;
    } else {
      changes[name]![before ? 'updated' : 'created']++;
      (before ? replaces : inserts).get(name)!.push(fields as CatalogRecord);
    }
  }
  return { changes, inserts, replaces };
}

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
