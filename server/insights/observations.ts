// What analyzers saw, stored apart from the records: one counter document per version, service,
// method and path template (`observations`), and the Idempotency-Keys of reports already counted
// (`insight-keys`, by their SHA-256 only: a key is the analyzer's, and may be anything it had at
// hand). Neither is a record: no updatedAt, no part of a version diff.
import { createHash } from 'node:crypto';
import type { ReportAnswer as ReportAnswerSchema } from '../schemas/generated/types.ts';
import type { AnyBulkWriteOperation, Collection as MongoCollection, Db, Document } from 'mongodb';
import { documentId } from '../store/records.ts';
import { RecordLocks } from '../store/locks.ts';
import type { LifecycleDelta } from './lifecycle-calls.ts';

export const OBSERVATIONS = 'observations';
export const INSIGHT_KEYS = 'insight-keys';
/** Calls of deprecated or sunset operations and parameters, per client (lifecycle-calls.ts). */
export const LIFECYCLE_CALLS = 'lifecycle-calls';
/** Copied with a version copy: the observations and lifecycle calls; purged with the version: all. */
export const INSIGHT_COMPANIONS = [{ name: OBSERVATIONS, copied: true }, { name: INSIGHT_KEYS, copied: false }, { name: LIFECYCLE_CALLS, copied: true }];
/** How long an Idempotency-Key is remembered: a retrying analyzer retries within minutes, not days. */
export const KEY_TTL_MS = 24 * 60 * 60 * 1000;
const BULK_BATCH = 500;
/**
 * FerretDB 1.24 hung (no answer in 120 s, and none to later commands) on one bulk write of 200
 * `$inc` upserts of existing documents; batches of 50 answer (about 45 ms per existing document
 * on a loaded two-core machine, see docs/insights.md).
 */
const FERRETDB_BULK_BATCH = 50;
const DUPLICATE_KEY = 11000;

/** One service's calls of one method and path template, summed. */
export interface Observation {
  serviceId: string;
  /** Upper case, as on the wire. */
  method: string;
  /** The operation's path template, or (shadow) the observed path with ids folded to `{id}`. */
  path: string;
  count: number;
  statusCodes: Record<string, number>;
  firstSeenAt: Date;
  lastSeenAt: Date;
}

/** What a report adds to one observation. */
export type ObservationDelta = Observation;

/** The answer a report got (schemas/api/insights.json, but `duplicate`), kept with its key so a retry gets the same one. */
export type ReportAnswer = Omit<ReportAnswerSchema, 'duplicate'>;

type Stored = Document & { _id: string };

/** One counter document's upsert: its id, the fields it is made with, what it adds, and the times it widens to. */
interface Counter { id: string; fields: Document; counts: Record<string, number>; firstSeenAt: Date; lastSeenAt: Date }

/**
 * The observation's key: service, method and the template with its parameter names dropped, so
 * `/pets/{petId}` and a folded shadow `/pets/{id}` are the same endpoint.
 */
export function endpointKey(serviceId: string, method: string, path: string): string {
  return `${serviceId} ${method.toUpperCase()} ${path.replace(/\{[^}]*\}/g, '{}')}`;
}

export class Observations {
  readonly #observations: MongoCollection<Stored>;
  readonly #keys: MongoCollection<Stored>;
  readonly #lifecycle: MongoCollection<Stored>;
  readonly #locks: RecordLocks | undefined;
  readonly #expiresItself: boolean;
  readonly #batch: number;

  /**
   * For FerretDB (`ferretdb`): it applies `$inc` as a read then a write, so writes are queued here,
   * and it has no TTL indexes, so expired keys are dropped here (see docs/insights.md).
   */
  constructor(db: Db, options: { ferretdb: boolean }) {
    this.#observations = db.collection(OBSERVATIONS);
    this.#keys = db.collection(INSIGHT_KEYS);
    this.#lifecycle = db.collection(LIFECYCLE_CALLS);
    this.#locks = options.ferretdb ? new RecordLocks() : undefined;
    this.#expiresItself = !options.ferretdb;
    this.#batch = options.ferretdb ? FERRETDB_BULK_BATCH : BULK_BATCH;
  }

  async createIndexes(): Promise<void> {
    // One index per command (FerretDB 1.24; see RecordStore.createIndexes).
    await this.#observations.createIndex({ versionId: 1, id: 1 }, { name: 'versionId_id', unique: true });
    await this.#observations.createIndex({ versionId: 1, serviceId: 1, lastSeenAt: 1 }, { name: 'versionId_serviceId_lastSeenAt' });
    await this.#keys.createIndex({ versionId: 1, id: 1 }, { name: 'versionId_id', unique: true });
    await this.#lifecycle.createIndex({ versionId: 1, id: 1 }, { name: 'versionId_id', unique: true });
    // MongoDB drops expired keys itself; FerretDB 1.24 refuses TTL indexes ("not implemented"),
    // so there claim() drops a version's expired keys and treats one not yet dropped as free.
    if (this.#expiresItself) await this.#keys.createIndex({ expiresAt: 1 }, { name: 'expiresAt_ttl', expireAfterSeconds: 0 });
    else await this.#keys.createIndex({ versionId: 1, expiresAt: 1 }, { name: 'versionId_expiresAt' });
  }

  /**
   * Adds the deltas with `$inc` (and `$min`/`$max` for the times), one upsert per endpoint. On
   * MongoDB each is atomic. FerretDB 1.24 reads and writes the document back in two steps, so two
   * reports at once could lose an increment: there the version's observation writes are queued
   * in this process (FerretDB is single-instance here anyway).
   */
  async add(versionId: string, deltas: readonly ObservationDelta[]): Promise<void> {
    await this.#counted(this.#observations, versionId, deltas.map((delta) => ({
      id: observationId(delta),
      fields: { serviceId: delta.serviceId, method: delta.method, path: delta.path },
      counts: { count: delta.count, ...Object.fromEntries(Object.entries(delta.statusCodes).map(([code, n]) => [`statusCodes.${code}`, n])) },
      firstSeenAt: delta.firstSeenAt, lastSeenAt: delta.lastSeenAt,
    })));
  }

  /** Adds calls of going-away items as add() adds observations: one upsert per item, operation and client. */
  async addLifecycle(versionId: string, deltas: readonly LifecycleDelta[]): Promise<void> {
    await this.#counted(this.#lifecycle, versionId, deltas.map((delta) => ({
      id: `lc_${createHash('sha256').update(JSON.stringify([delta.operationId, delta.item, delta.client])).digest('base64url').slice(0, 32)}`,
      fields: { serviceId: delta.serviceId, operationId: delta.operationId, item: delta.item, client: delta.client },
      counts: { count: delta.count, responses: delta.responses, deprecation: delta.deprecation, sunset: delta.sunset },
      firstSeenAt: delta.firstSeenAt, lastSeenAt: delta.lastSeenAt,
    })));
  }

  /** One `$inc` upsert per counter document (its fields set on insert), in batches, queued per version on FerretDB (see add). */
  async #counted(collection: MongoCollection<Stored>, versionId: string, counters: readonly Counter[]): Promise<void> {
    if (counters.length === 0) return;
    const operations = counters.map(({ id, fields, counts, firstSeenAt, lastSeenAt }): AnyBulkWriteOperation<Stored> => ({
      updateOne: {
        filter: { _id: documentId(versionId, id) },
        update: { $setOnInsert: { id, versionId, ...fields }, $inc: counts, $min: { firstSeenAt }, $max: { lastSeenAt } },
        upsert: true,
      },
    }));
    const write = async () => {
      for (let start = 0; start < operations.length; start += this.#batch) {
        await collection.bulkWrite(operations.slice(start, start + this.#batch), { ordered: false });
      }
    };
    await (this.#locks ? this.#locks.run(versionId, write) : write());
  }

  /** Every count of calls to going-away items in the version (of these services, when given). */
  async lifecycleOf(versionId: string, serviceIds?: readonly string[]): Promise<LifecycleDelta[]> {
    const filter: Document = { versionId, ...(serviceIds && { serviceId: { $in: [...serviceIds] } }) };
    const documents = await this.#lifecycle.find(filter, { projection: { _id: 0 } }).toArray();
    return documents.map((document) => ({
      serviceId: String(document['serviceId']), operationId: String(document['operationId']), item: String(document['item']), client: String(document['client'] ?? ''),
      count: Number(document['count'] ?? 0), responses: Number(document['responses'] ?? 0), deprecation: Number(document['deprecation'] ?? 0), sunset: Number(document['sunset'] ?? 0),
      firstSeenAt: document['firstSeenAt'] as Date, lastSeenAt: document['lastSeenAt'] as Date,
    }));
  }

  /** Every observation of the version (of these services, when given). */
  async of(versionId: string, serviceIds?: readonly string[]): Promise<Observation[]> {
    const filter: Document = { versionId, ...(serviceIds && { serviceId: { $in: [...serviceIds] } }) };
    const documents = await this.#observations.find(filter, { projection: { _id: 0 } }).toArray();
    return documents.map((document) => ({
      serviceId: String(document['serviceId']),
      method: String(document['method']),
      path: String(document['path']),
      count: Number(document['count'] ?? 0),
      statusCodes: { ...(document['statusCodes'] as Record<string, number> | undefined) },
      firstSeenAt: document['firstSeenAt'] as Date,
      lastSeenAt: document['lastSeenAt'] as Date,
    }));
  }

  /**
   * Claims an Idempotency-Key for a report about to be counted: null when the claim is ours, else
   * the answer the first report got (undefined while that one is still being counted). Insert
   * uniqueness is atomic on MongoDB and FerretDB alike, so two racing retries count once.
   */
  async claim(versionId: string, key: string, now = new Date()): Promise<ReportAnswer | undefined | null> {
    const id = keyId(key);
    const _id = documentId(versionId, id);
    const claim = { _id, id, versionId, expiresAt: new Date(now.getTime() + KEY_TTL_MS) };
    if (!this.#expiresItself) await this.#keys.deleteMany({ versionId, expiresAt: { $lte: now } });
    try {
      await this.#keys.insertOne(claim);
      return null;
    } catch (error) {
      if ((error as { code?: unknown }).code !== DUPLICATE_KEY) throw error;
    }
    const held = await this.#keys.findOne({ _id });
    if (held && (held['expiresAt'] as Date) <= now) {
      // Expired but not yet dropped (FerretDB has no TTL monitor): take it over, if no one else did.
      const taken = await this.#keys.replaceOne({ _id, expiresAt: held['expiresAt'] }, claim);
      if (taken.modifiedCount === 1) return null;
    }
    return (held?.['answer'] as ReportAnswer | undefined) ?? undefined;
  }

  /** Keeps the answer with the key, for retries. */
  async settle(versionId: string, key: string, answer: ReportAnswer): Promise<void> {
    await this.#keys.updateOne({ _id: documentId(versionId, keyId(key)) }, { $set: { answer } });
  }

  /** Gives a key back when its report could not be counted, so a retry counts it. */
  async release(versionId: string, key: string): Promise<void> {
    await this.#keys.deleteOne({ _id: documentId(versionId, keyId(key)) });
  }
}

/** Stable per endpoint, so every report of it meets the same document. */
function observationId(delta: Pick<Observation, 'serviceId' | 'method' | 'path'>): string {
  return `obs_${createHash('sha256').update(endpointKey(delta.serviceId, delta.method, delta.path)).digest('base64url').slice(0, 32)}`;
}

/** What is stored of an Idempotency-Key: enough to know it again, nothing of what it says. */
function keyId(key: string): string {
  return `key_${createHash('sha256').update(key).digest('base64url')}`;
}
