// An import's plan written: collection by collection in bulk, parents first (deletes the other
// way), the webhooks beside the Service between them, and one revision for the whole import.
// Every write is an idempotent upsert or delete, so an import cut short is completed by running
// it again.
import { Conflict } from '../errors.ts';
import { SERVICES } from '../ownership/service-records.ts';
import { NaturalKeyTaken, type HeldWrite, type RecordStore } from '../store/records.ts';
import { collectionStore } from '../store/stores.ts';
import type { PlannedImport } from './import-plan.ts';
import type { PartsPlan } from './service-parts.ts';

/** What earlier passes of one import wrote, by `collection:id`, so the report counts it as theirs. */
export type Written = Map<string, 'created' | 'updated'>;

/** A record another request created under a natural key the import plans, met while it wrote (the sync adopts it on its next pass). */
export class KeyTakenWhileWriting extends Error {
  readonly conflict: Conflict;
  constructor(conflict: Conflict) {
    super('natural key taken while the import wrote');
    this.conflict = conflict;
  }
}

/**
 * Writes the plan and the service's parts; what it wrote, as stored, under the one revision it
 * gave the version (none when nothing was to be written). The revision is given after the writes
 * whatever happened to them: one change listed on the version, which the search index applies
 * from the records. `written` learns each record before its write.
 */
export async function writePlan(stores: ReadonlyMap<string, RecordStore>, versionId: string, plan: PlannedImport, parts: PartsPlan, written: Written, beforeWrite?: () => Promise<string>): Promise<HeldWrite | undefined> {
  const { inserts, replaces, deletes } = plan;
  const names = plan.kinds.map(({ name }) => name);
  const store = (name: string): RecordStore => collectionStore(stores, name);
  const now = new Date();
  const touched = names.filter((name) => inserts.get(name)!.length + replaces.get(name)!.length + deletes.get(name)!.length > 0);
  const ids = touched.flatMap((name) => [...inserts.get(name)!, ...replaces.get(name)!].map((record) => record.id).concat(deletes.get(name)!));
  let token = touched.length > 0 ? await beforeWrite?.() : undefined;
  try {
    for (const name of names) {
      for (const [records, kind] of [[inserts, 'created'], [replaces, 'updated']] as const) {
        for (const record of records.get(name)!) if (!written.has(`${name}:${record.id}`)) written.set(`${name}:${record.id}`, kind);
      }
      try {
        await store(name).bulk(versionId, { insert: [...inserts.get(name)!], replace: [...replaces.get(name)!] }, now, { revision: false });
      } catch (error) {
        if (!(error instanceof NaturalKeyTaken)) throw error;
        throw new KeyTakenWhileWriting(keyConflict(store(name), error, plan.pointers.get(`${name}:${error.refused?.id}`)));
      }
    }
    await parts.write();
    for (const name of [...names].reverse()) await store(name).bulk(versionId, { delete: [...deletes.get(name)!] }, now, { revision: false });
  } finally {
    if (touched.length > 0) token = await store(SERVICES).written(versionId, touched, ids, token);
  }
  if (token === undefined) return undefined;
  return {
    token, collections: touched,
    records: new Map(touched.map((name) => [name, [...inserts.get(name)!, ...replaces.get(name)!].map((record) => store(name).asStored(record, now))])),
    deleted: new Map(touched.map((name) => [name, [...deletes.get(name)!]])),
  };
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
