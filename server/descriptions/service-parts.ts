// Parts of an imported document kept beside its Service record rather than on it: each webhook
// (OpenAPI 3.1 `webhooks`, a Path Item per name), and each component of the sections no record
// kind holds (responses, parameters, request bodies...), is one document of the `service-parts`
// collection. GitHub's 300-odd webhooks put 20,000 keys on the Service record, twice the default
// RECORD_MAX_KEYS; one webhook is a few dozen. Not records: no API of their own, no
// updatedAt, no part of a version diff; copied and purged with their version (a companion of
// version-records.ts), synced by the import, laid back by export, deleted with their Service record.
import type { AnyBulkWriteOperation, Collection as MongoCollection, Db, Document } from 'mongodb';
import { isObject, sameJson, type Json, type JsonObject } from '../json/values.ts';
import { stablePositions } from '../ownership/document-order.ts';
import { decodeValue, encodeValue } from '../store/codec.ts';
import { documentId } from '../store/records.ts';
import type { VersionCompanion } from '../store/version-records.ts';

export const SERVICE_PARTS = 'service-parts';
export const SERVICE_PARTS_COMPANION: VersionCompanion = { name: SERVICE_PARTS, copied: true };
/**
 * The maps of a document whose entries are kept as parts, one per entry, by their place in it
 * (`webhooks`, `components/responses`): the webhooks, and the components no record kind holds.
 * Microsoft Graph beta's 1,757 `components.responses` put 10,678 keys on its Service record.
 */
export const PARTED_MEMBERS = ['webhooks', 'components/responses', 'components/parameters', 'components/requestBodies', 'components/callbacks', 'components/links', 'components/pathItems'] as const;
/** The top-level members kept as parts, and the component sections (so neither is on the Service record). */
export const PARTED_TOP_LEVEL = PARTED_MEMBERS.filter((member) => !member.includes('/'));
export const PARTED_COMPONENTS = PARTED_MEMBERS.filter((member) => member.startsWith('components/')).map((member) => member.slice('components/'.length));

/** One entry of a parted member: `{member: 'webhooks', name, value}`, with its place among the service's parts. */
export interface ServicePart { member: string; name: string; value: Json; order: number }

/**
 * Writes per bulk command: FerretDB 1.24 keeps a pool connection per matched update statement
 * until the command ends (see store/bulk-writes.ts), so replaces go a few at a time.
 */
const WRITE_BATCH = 16;

/** The parts a document holds, in document order (order not yet given). */
export function partsOf(document: JsonObject): Omit<ServicePart, 'order'>[] {
  return PARTED_MEMBERS.flatMap((member) => {
    const map = member.split('/').reduce<Json | undefined>((at, key) => (isObject(at) ? at[key] : undefined), document);
    return isObject(map) ? Object.entries(map).map(([name, value]) => ({ member, name, value })) : [];
  });
}

/** What syncing a service's parts does, counted as an import reports records. */
export interface PartsPlan {
  counts: { created: number; updated: number; deleted: number; unchanged: number };
  write(): Promise<void>;
}

export class ServiceParts {
  readonly #documents: MongoCollection<PartDocument>;

  constructor(db: Db) {
    this.#documents = db.collection<PartDocument>(SERVICE_PARTS);
  }

  /** The service's parts, in document order. */
  async of(versionId: string, serviceId: string): Promise<ServicePart[]> {
    const documents = await this.#documents.find({ versionId, serviceId }).toArray();
    return documents.map((document) => ({ member: String(document['member']), name: String(document['name']), value: decodeValue(document['value']) as Json, order: Number(document['order']) }))
      .sort((a, b) => a.order - b.order);
  }

  /** The plan that makes the stored parts the document's: unchanged ones untouched, an inserted one written alone. */
  async plan(versionId: string, serviceId: string, wanted: readonly Omit<ServicePart, 'order'>[]): Promise<PartsPlan> {
    const stored = new Map((await this.of(versionId, serviceId)).map((part) => [idOf(serviceId, part), part]));
    const positions = stablePositions(wanted.map((part) => stored.get(idOf(serviceId, part))?.order));
    const counts = { created: 0, updated: 0, deleted: 0, unchanged: 0 };
    const writes: PartDocument[] = [];
    wanted.forEach((part, index) => {
      const before = stored.get(idOf(serviceId, part));
      if (before && before.order === positions[index] && sameJson(before.value, part.value)) counts.unchanged++;
      else {
        counts[before ? 'updated' : 'created']++;
        const id = idOf(serviceId, part);
        writes.push({ _id: documentId(versionId, id), id, versionId, serviceId, member: part.member, name: part.name, order: positions[index], value: encodeValue(part.value) });
      }
    });
    const kept = new Set(wanted.map((part) => idOf(serviceId, part)));
    const gone = [...stored.keys()].filter((id) => !kept.has(id));
    counts.deleted = gone.length;
    return {
      counts,
      write: async () => {
        // New parts inserted (FerretDB's upserts are slow), changed ones replaced; a write cut short is completed by the next import.
        for (let start = 0; start < writes.length; start += WRITE_BATCH) {
          const batch: AnyBulkWriteOperation<PartDocument>[] = writes.slice(start, start + WRITE_BATCH).map((document) => (stored.has(String(document['id']))
            ? { replaceOne: { filter: { _id: document['_id'] }, replacement: document, upsert: true } }
            : { insertOne: { document } }));
          await this.#documents.bulkWrite(batch, { ordered: false });
        }
        for (let start = 0; start < gone.length; start += WRITE_BATCH) {
          await this.#documents.bulkWrite(gone.slice(start, start + WRITE_BATCH).map((id) => ({ deleteOne: { filter: { _id: documentId(versionId, id) } } })), { ordered: false });
        }
      },
    };
  }

  /** Deletes a service's parts (its Service record was deleted): none of them is read again. */
  async forget(versionId: string, serviceId: string): Promise<void> {
    await this.#documents.deleteMany({ versionId, serviceId });
  }

  /**
   * At start-up, with the records' indexes: never during an import, where FerretDB would take its
   * catalogue's lock for the index and, with SQLite's write lock held elsewhere, stall every read.
   */
  async createIndexes(): Promise<void> {
    await this.#documents.createIndex({ versionId: 1, serviceId: 1, id: 1 }, { name: 'versionId_serviceId_id' });
  }
}

/** A part as stored: `_id` is `versionId:id`, as for records. */
interface PartDocument extends Document { _id: string }

/** A part's id: unique in its version (its service, member and name). */
function idOf(serviceId: string, part: { member: string; name: string }): string {
  return `${serviceId}/${part.member}/${part.name}`;
}

/** The document with its parts laid back under their members, in their order. */
export function withParts(document: JsonObject, parts: readonly Omit<ServicePart, 'order'>[]): JsonObject {
  const out: JsonObject = { ...document };
  for (const { member, name, value } of parts) {
    const keys = member.split('/');
    let at = out;
    for (const key of keys.slice(0, -1)) at = at[key] = { ...(isObject(at[key]) ? at[key] : {}) };
    const last = keys.at(-1)!;
    at[last] = { ...(isObject(at[last]) ? at[last] : {}), [name]: value };
  }
  return out;
}
