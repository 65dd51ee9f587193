// Import as a sync, in four steps each testable alone: plan (import-plan.ts: the document's
// records matched with the stored ones by natural key, nothing read or written), review (the
// caller's judgement of the plan, which may refuse it), write (import-write.ts: in bulk, every
// write idempotent, so an import cut short is completed by running it again), and the caller
// gets what was written to hand on.
import { newId } from '../ids.ts';
import { MARKED_SERVICE } from '../store/mark.ts';
import { SERVICES } from '../ownership/service-records.ts';
import type { CatalogRecord, HeldWrite, RecordStore } from '../store/records.ts';
import { isObject, type JsonObject } from '../json/values.ts';
import { Slices } from './slices.ts';
import { mappedKinds } from './kinds.ts';
import { partsOf, SERVICE_PARTS, type ServiceParts } from './service-parts.ts';
import { collectionStore, storeOf } from '../store/stores.ts';
import type { RecordLimits } from '../store/record-cost.ts';
import type { ImportAnswer, ImportWarning, RecordCounts } from '../schemas/generated/types.ts';
import { planImport, type ImportPlan, type PlannedImport } from './import-plan.ts';
import { KeyTakenWhileWriting, writePlan, type Written } from './import-write.ts';

export type { ImportPlan } from './import-plan.ts';
export type Counts = RecordCounts;
export type Warning = ImportWarning;

export interface ImportReport {
  created: boolean;
  /** The answer (schemas/api/import-report.json), but the changes report a review adds. */
  body: Omit<ImportAnswer, 'changes'>;
  /** What the import wrote, as stored, under the one revision it gave the version; none for a dry run or when nothing was written. */
  written?: HeldWrite;
}

export interface ImportTarget {
  stores: ReadonlyMap<string, RecordStore>;
  versionId: string;
  projectId: string;
  /** What one record may cost, as for a request body (README, Limits). */
  limits: RecordLimits;
  /** What the import keeps beside the Service record (webhooks, shared components). */
  serviceParts: ServiceParts;
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

async function sync(target: ImportTarget, document: JsonObject, slug: string, { dryRun, review, beforeWrite }: ImportOptions, written: Written): Promise<ImportReport> {
  // A kind with no OpenAPI mapping (kinds.ts) is neither read nor written: its records stay as they are.
  const kinds = mappedKinds([...target.stores.values()].map(({ collection }) => collection));
  const existing = await readService(target, kinds.map(({ name }) => name), slug);
  // A record at a time, pausing between slices: other requests are served while a large description is planned.
  const slices = new Slices();
  const plan = await planImport({
    document, slug, versionId: target.versionId, projectId: target.projectId, kinds, existing, limits: target.limits, newId, earlier: written,
  }, () => slices.pause());
  // The webhooks, beside the Service record (service-parts.ts), counted as a collection of their own.
  const parts = await target.serviceParts.plan(target.versionId, plan.serviceId, partsOf(document));
  plan.changes[SERVICE_PARTS] = parts.counts;

  await review?.(reviewed(plan, partsOf(document)));
  let held: HeldWrite | undefined;
  if (!dryRun) held = await writePlan(target.stores, target.versionId, plan, parts, written, beforeWrite && (() => beforeWrite(reviewed(plan, partsOf(document)))));
  return {
    created: !dryRun && plan.changes[SERVICES]!.created > 0,
    body: { service: { id: plan.serviceId, slug }, dryRun, records: plan.changes, warnings: plan.warnings },
    ...(held && { written: held }),
  };
}

/** What a review sees of the plan. */
function reviewed({ serviceId, kinds, existing, inserts, replaces, deletes }: PlannedImport, parts: ImportPlan['parts']): ImportPlan {
  return { serviceId, kinds, existing, inserts, replaces, deletes, parts };
}

/** What an import reads before it plans: the service (by slug) and its records of each kind, by collection. */
type ServiceRecords = ReadonlyMap<string, readonly CatalogRecord[]>;

/**
 * The records an import plans from. Only the service's own are read (reading the whole version made
 * an import cost what the whole version held): the service by its slug, then each kind's records marked as the
 * service's or unmarked (made over HTTP); the other services' records are marked as theirs.
 */
async function readService(target: ImportTarget, names: readonly string[], slug: string): Promise<ServiceRecords> {
  const services = await storeOf(target.stores, SERVICES).matching(target.versionId, { slug });
  const serviceId = services[0]?.id;
  // Each kind by the mark alone, so all of them at once. A service not there yet has no records
  // marked as its own: only the unmarked ones are read.
  return new Map(await Promise.all(names.map(async (name) => [name, name === SERVICES
    ? services
    : await collectionStore(target.stores, name).markedOrUnmarked(target.versionId, MARKED_SERVICE, serviceId ?? '')] as const)));
}
