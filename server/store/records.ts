// One collection of records (Paths, Requests, ...) in MongoDB, whatever its schema: the
// stored form, the indexes, and single-document atomic writes.
import type { Collection as MongoCollection, Db, Document, Filter } from 'mongodb';
import type { Collection } from '../schemas/registry.ts';
import { decodeValue, encodeValue } from './codec.ts';
import { keysetFilter, mongoSort, type SortKey } from './cursor.ts';
import { RecordLocks } from './locks.ts';

/** A record as the interface shows it: JSON, with `updatedAt` an ISO string. */
export type CatalogRecord = Record<string, unknown> & { id: string; versionId: string };

export interface ListQuery {
  versionId: string;
  /** Equality filters on reference fields, already checked. */
  filters: Readonly<Record<string, string>>;
  /** Ends with `id` (see cursor.ts). */
  sort: readonly SortKey[];
  /** Id of the first item of the page; undefined for the first page. */
  cursor: string | undefined;
  limit: number;
}

export interface Page {
  items: CatalogRecord[];
  /** Id of the first item of the next page, or null. */
  nextCursor: string | null;
}

/** A record as stored: its fields (encoded), keyed by `_id` = version and id. */
type StoredDocument = Document & { _id: string };

/** The cursor's item is gone and the sort needs its values to know where to resume. */
export class CursorGone extends Error {}

const DUPLICATE_KEY = 11000;

export class RecordStore {
  readonly collection: Collection;
  readonly #documents: MongoCollection<StoredDocument>;
  readonly #locks = new RecordLocks();

  constructor(db: Db, collection: Collection) {
    this.collection = collection;
    this.#documents = db.collection(collection.name);
  }

  /**
   * The unique `{versionId, id}` index, one per filter field (serving filter + default order),
   * and `updatedAt` (the one sort every record has). Other sorts are served by the
   * `{versionId, id}` prefix plus an in-memory sort of one version's records.
   */
  async createIndexes(): Promise<void> {
    const indexes = [
      { key: { versionId: 1, id: 1 }, name: 'versionId_id', unique: true },
      { key: { versionId: 1, updatedAt: 1, id: 1 }, name: 'versionId_updatedAt_id' },
      ...[...this.collection.filters.keys()].map((field) => ({ key: { versionId: 1, [field]: 1, id: 1 }, name: `versionId_${field}_id` })),
    ];
    // One index per command: FerretDB 1.24 drops the connection ("slice bounds out of range")
    // when a multi-index createIndexes names only indexes that already exist, as on every restart.
    for (const { key, ...options } of indexes) await this.#documents.createIndex(key, options);
  }

  /** Runs `work` with every other write to this record of this process queued behind it. */
  exclusive<T>(versionId: string, id: string, work: () => Promise<T>): Promise<T> {
    return this.#locks.run(documentId(versionId, id), work);
  }

  async get(versionId: string, id: string): Promise<CatalogRecord | null> {
    const document = await this.#documents.findOne({ _id: documentId(versionId, id) });
    return document && this.toRecord(document);
  }

  /** The stored record, or null when the id is taken in that version (insert uniqueness is atomic everywhere). */
  async insert(record: CatalogRecord, updatedAt: Date): Promise<CatalogRecord | null> {
    const document = toDocument(record, updatedAt);
    try {
      await this.#documents.insertOne(document);
      return this.toRecord(document);
    } catch (error) {
      if ((error as { code?: unknown }).code === DUPLICATE_KEY) return null;
      throw error;
    }
  }

  /** Replaces the whole record, or creates it; says which. */
  async replace(record: CatalogRecord, updatedAt: Date): Promise<{ record: CatalogRecord; created: boolean }> {
    const document = toDocument(record, updatedAt);
    try {
      const result = await this.#documents.replaceOne({ _id: document._id }, document, { upsert: true });
      return { record: this.toRecord(document), created: result.upsertedCount > 0 };
    } catch (error) {
      // Another instance created it between our match and our insert: it exists now, so replace it.
      if ((error as { code?: unknown }).code !== DUPLICATE_KEY) throw error;
      await this.#documents.replaceOne({ _id: document._id }, document);
      return { record: this.toRecord(document), created: false };
    }
  }

  /** Sets the given top-level fields in one atomic update; null when the record is gone. */
  async update(versionId: string, id: string, fields: Record<string, unknown>, updatedAt: Date): Promise<CatalogRecord | null> {
    const set = Object.fromEntries(Object.entries(fields).map(([field, value]) => [field, encodeValue(value)]));
    const document = await this.#documents.findOneAndUpdate(
      { _id: documentId(versionId, id) },
      { $set: { ...set, updatedAt } },
      { returnDocument: 'after' },
    );
    return document && this.toRecord(document);
  }

  async delete(versionId: string, id: string): Promise<boolean> {
    const result = await this.#documents.deleteOne({ _id: documentId(versionId, id) });
    return result.deletedCount > 0;
  }

  async list(query: ListQuery): Promise<Page> {
    const filter: Filter<StoredDocument> = { versionId: query.versionId, ...query.filters };
    const start = await this.#startOf(query);
    const documents = await this.#documents
      .find(start ? { $and: [filter, start] } : filter)
      .sort(mongoSort(query.sort))
      .limit(query.limit + 1)
      .toArray();
    const next = documents.length > query.limit ? documents.pop() : undefined;
    return { items: documents.map((document) => this.toRecord(document)), nextCursor: next ? String(next['id']) : null };
  }

  /**
   * Stored document → record: decoded, dates as ISO strings, `_id` dropped, defaults filled.
   * Writes answer with this too, so a response is exactly what a later GET returns.
   */
  toRecord(document: Document): CatalogRecord {
    const { _id, updatedAt, ...stored } = document;
    const record = decodeValue(stored) as Record<string, unknown>;
    for (const [field, value] of Object.entries(this.collection.defaults)) {
      if (record[field] === undefined) record[field] = structuredClone(value);
    }
    record['updatedAt'] = updatedAt instanceof Date ? updatedAt.toISOString() : (updatedAt ?? null);
    return record as CatalogRecord;
  }

  async #startOf(query: ListQuery): Promise<Filter<StoredDocument> | undefined> {
    if (query.cursor === undefined) return undefined;
    const [first] = query.sort;
    // Sorted by id alone the cursor is all we need, even if its item has been deleted since.
    if (query.sort.length === 1 && first?.field === 'id') {
      return { id: { [first.direction === 1 ? '$gte' : '$lte']: query.cursor } };
    }
    const cursorDocument = await this.#documents.findOne({ _id: documentId(query.versionId, query.cursor) });
    if (!cursorDocument) throw new CursorGone();
    return keysetFilter(query.sort, cursorDocument);
  }
}

/**
 * The stored `_id`: version and record id together. An exact `_id` match is the one lookup
 * FerretDB pushes down to SQLite, and `_id` uniqueness makes `{versionId, id}` unique on insert.
 */
export function documentId(versionId: string, id: string): string {
  return `${versionId}:${id}`;
}

function toDocument(record: CatalogRecord, updatedAt: Date): StoredDocument {
  const { id, versionId, updatedAt: _ignored, ...fields } = record;
  return { _id: documentId(versionId, id), id, versionId, ...(encodeValue(fields) as Document), updatedAt };
}
