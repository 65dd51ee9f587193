// One collection of records (Paths, Requests, ...) in MongoDB, whatever its schema: the
// stored form, the indexes, natural keys, and single-document atomic writes, each followed by a
// new revision of its version (revisions.ts) so what is kept of the version knows it changed.
import type { Collection as MongoCollection, Db, Document } from 'mongodb';
import type { CompiledCollection } from '../schemas/registry.ts';
import { decodeValue, encodeField, encodeKey } from './codec.ts';
import { writeInBatches } from './bulk-writes.ts';
import { RecordLocks } from './locks.ts';
import { backfillKeys, isDuplicateKey as isDuplicate, KEY_FIELD, naturalKeyOf } from './natural-keys.ts';
import { CursorPositions } from './positions.ts';
import { documentId, fromDocument, NaturalKeyTaken, sameStored, toDocument, type BulkWrites, type CatalogRecord, type ListQuery, type Page, type StoredDocument } from './record.ts';
import type { Revisions } from '../tenancy/revisions.ts';
import { RecordPages } from './record-pages.ts';
import { inSlices, recordIndexes } from './record-indexes.ts';

// The record shapes and refusals live in record.ts; callers keep importing them from here, the store's door.
export { CursorGone, documentId, NaturalKeyTaken, type BulkWrites, type CatalogRecord, type HeldWrite, type ListQuery, type Page } from './record.ts';

export class RecordStore {
  readonly collection: CompiledCollection;
  readonly #db: Db;
  readonly #documents: MongoCollection<StoredDocument>;
  readonly #locks = new RecordLocks();
  readonly #serialiseWrites: boolean;
  readonly #positions: CursorPositions;
  readonly #revisions: Revisions;
  readonly #pages: RecordPages;

  /**
   * `revisions`: the tenancy's, bumped after each write (the tenancy writes `versions`, the store
   * only its collection). `serialiseWrites`: queue writes to one record in this process (FerretDB
   * needs it; see locks.ts).
   */
  constructor(db: Db, collection: CompiledCollection, options: { revisions: Revisions; serialiseWrites?: boolean }) {
    this.collection = collection;
    this.#db = db;
    this.#serialiseWrites = options.serialiseWrites !== false;
    this.#positions = new CursorPositions(db, collection.name);
    this.#revisions = options.revisions;
    // fieldsAsRaw defaults to `{}` in the driver, and js-bson reads it as `fieldsAsRaw[key]`
    // for every array: under a key named like an Object.prototype member (`__proto__`,
    // `constructor`, `toString`...) that lookup is truthy, so the array's documents came back
    // as raw BSON Buffers. A null-prototype object has no such members.
    this.#documents = db.collection(collection.name, { fieldsAsRaw: Object.create(null) as Document });
    this.#pages = new RecordPages(this.#documents, this.#positions, (document) => this.toRecord(document));
  }

  /** Makes the collection's indexes (record-indexes.ts), after giving old records their natural key. */
  async createIndexes(): Promise<void> {
    await backfillKeys(this.#db, this.#documents, this.collection, (document) => this.toRecord(document));
    const indexes = recordIndexes(this.collection);
    // One index per command: FerretDB 1.24 drops the connection ("slice bounds out of range")
    // when a multi-index createIndexes names only indexes that already exist, as on every restart.
    for (const { key, ...options } of indexes) await this.#documents.createIndex(key as Record<string, 1>, options);
    await this.#positions.createIndexes();
  }

  /**
   * Runs `work` with every other write to this record of this process queued behind it, where
   * the database needs that (FerretDB); on MongoDB each write is one atomic document operation
   * and instances cannot share a process lock anyway, so `work` runs at once.
   */
  exclusive<T>(versionId: string, id: string, work: () => Promise<T>): Promise<T> {
    return this.#serialiseWrites ? this.#locks.run(documentId(versionId, id), work) : work();
  }

  /**
   * Runs `work` after every earlier `work` of this process under the same natural key, on any
   * database: many writes that must not interleave (an import of one service). Ids are never JSON arrays.
   */
  exclusiveKey<T>(versionId: string, key: Record<string, unknown>, work: () => Promise<T>): Promise<T> {
    const natural = naturalKeyOf(this.collection.naturalKey, key);
    if (natural === undefined) throw new Error(`${this.collection.name} have no natural key to hold`);
    return this.#locks.run(documentId(versionId, natural), work);
  }

  async get(versionId: string, id: string): Promise<CatalogRecord | null> {
    const document = await this.#documents.findOne({ _id: documentId(versionId, id) });
    return document && this.toRecord(document);
  }

  /**
   * The stored record, or null when the id is taken in that version (insert uniqueness is atomic
   * everywhere); NaturalKeyTaken when another record holds its natural key.
   */
  insert(record: CatalogRecord, updatedAt: Date): Promise<CatalogRecord | null> {
    return this.#changing(record.versionId, [record.id], () => this.#insert(record, updatedAt));
  }

  async #insert(record: CatalogRecord, updatedAt: Date): Promise<CatalogRecord | null> {
    const document = this.#toDocument(record, updatedAt);
    try {
      await this.#documents.insertOne(document);
      return this.toRecord(document);
    } catch (error) {
      if (!isDuplicate(error)) throw error;
      // FerretDB does not say which index refused; the id decides.
      if (await this.#documents.findOne({ _id: document._id }, { projection: { _id: 1 } })) return null;
      throw await this.#keyTaken(document);
    }
  }

  /** Replaces the whole record, or creates it; says which. */
  replace(record: CatalogRecord, updatedAt: Date): Promise<{ record: CatalogRecord; created: boolean }> {
    return this.#changing(record.versionId, [record.id], () => this.#replace(record, updatedAt));
  }

  async #replace(record: CatalogRecord, updatedAt: Date): Promise<{ record: CatalogRecord; created: boolean }> {
    const document = this.#toDocument(record, updatedAt);
    try {
      const result = await this.#documents.replaceOne({ _id: document._id }, document, { upsert: true });
      return { record: this.toRecord(document), created: result.upsertedCount > 0 };
    } catch (error) {
      if (!isDuplicate(error)) throw error;
      // Either another instance created it between our match and our insert (it exists now, so
      // replace it), or the natural key is another record's.
      try {
        const result = await this.#documents.replaceOne({ _id: document._id }, document);
        if (result.matchedCount === 0) throw await this.#keyTaken(document);
      } catch (again) {
        if (isDuplicate(again)) throw await this.#keyTaken(document);
        throw again;
      }
      return { record: this.toRecord(document), created: false };
    }
  }

  /**
   * Sets the given top-level fields in one atomic update (plus, on FerretDB only, a second write
   * under the caller's lock when it skipped one; see below); null when the record is gone.
   */
  update(versionId: string, id: string, fields: Record<string, unknown>, updatedAt: Date, merged: Record<string, unknown>): Promise<CatalogRecord | null> {
    return this.#changing(versionId, [id], () => this.#update(versionId, id, fields, updatedAt, merged));
  }

  async #update(versionId: string, id: string, fields: Record<string, unknown>, updatedAt: Date, merged: Record<string, unknown>): Promise<CatalogRecord | null> {
    const set: Document = Object.fromEntries(Object.entries(fields).map(([field, value]) => [field, encodeField(value)]));
    const key = naturalKeyOf(this.collection.naturalKey, merged);
    const filter = { _id: documentId(versionId, id) };
    const document = await this.#writeKeyed({ versionId, [KEY_FIELD]: key }, () =>
      this.#documents.findOneAndUpdate(filter, { $set: { ...set, ...(key !== undefined && { [KEY_FIELD]: key }), updatedAt } }, { returnDocument: 'after' }));
    if (!document) return null;
    // FerretDB 1.24 skips a `$set` whose value it finds identical to the stored one, and its
    // comparison (types.Identical) ignores object keys: {"a": 1} → {"b": 1} was silently kept
    // as {"a": 1}. MongoDB always applies it, so this only runs where the database skipped one:
    // write the whole document once more (the caller holds the record's lock). A later
    // updatedAt makes FerretDB's whole-document comparison stop early (see toDocument).
    const skipped = Object.keys(set).filter((field) => !sameStored(document[field], set[field]));
    if (skipped.length === 0) return this.toRecord(document);
    const corrected = { ...document, ...Object.fromEntries(skipped.map((field) => [field, set[field]])) };
    corrected['updatedAt'] = new Date(updatedAt.getTime() + 1);
    const replaced = await this.#writeKeyed({ versionId, [KEY_FIELD]: key }, () =>
      this.#documents.findOneAndReplace(filter, corrected, { returnDocument: 'after' }));
    return replaced && this.toRecord(replaced);
  }

  delete(versionId: string, id: string): Promise<boolean> {
    return this.#changing(versionId, [id], async () => (await this.#documents.deleteOne({ _id: documentId(versionId, id) })).deletedCount > 0);
  }

  /** Every record of the version, in no particular order, read in batches. */
  async *records(versionId: string): AsyncGenerator<CatalogRecord> {
    for await (const document of this.#documents.find({ versionId })) yield this.toRecord(document);
  }

  /** The version's records with these ids that exist, in id order (an `$in` the index serves, IN_READ_MAX ids a read). */
  async withIds(versionId: string, ids: readonly string[]): Promise<CatalogRecord[]> {
    const found = await Promise.all(inSlices([...new Set(ids)]).map((slice) => this.#inIdOrder({ versionId, id: { $in: slice } })));
    return found.flat().sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** The values of one top-level field across the version's records (ids, component names). */
  async valuesOf(versionId: string, field: string): Promise<Set<unknown>> {
    const values = new Set<unknown>();
    for await (const document of this.#documents.find({ versionId }, { projection: { _id: 0, [field]: 1 } })) {
      if (document[field] !== undefined) values.add(decodeValue(document[field]));
    }
    return values;
  }

  /** The records of every version that lack a field (start-up repairs of records stored before it existed). */
  async *withoutField(field: string): AsyncGenerator<CatalogRecord> {
    for await (const document of this.#documents.find({ [field]: { $exists: false } })) yield this.toRecord(document);
  }

  /** Every record of the version, in id order (the sync of an import reads a service's records whole). */
  all(versionId: string): Promise<CatalogRecord[]> {
    return this.#inIdOrder({ versionId });
  }

  /**
   * Every record of the version with only these top-level fields (and its id), in id order: the
   * same read as `all` without returning what is left out (request bodies' schemas when search
   * wants their media types). Fields left out read as their defaults.
   */
  async allWith(versionId: string, fields: readonly string[]): Promise<CatalogRecord[]> {
    return this.#inIdOrder({ versionId }, onlyFields(fields));
  }

  /**
   * Every record of the version (with `fields`, only those, filled with their defaults, its id and
   * version: no `updatedAt`), in no particular order: for callers that order them themselves.
   * Sorted, a whole version is held and sorted in the database's memory (FerretDB sorts in its
   * handler); unsorted, it streams.
   */
  async allUnordered(versionId: string, fields?: readonly string[]): Promise<CatalogRecord[]> {
    if (!fields) return (await this.#documents.find({ versionId }).toArray()).map((document) => this.toRecord(document));
    // A view of a whole version reads tens of thousands of records this way (a version's
    // parameters), and making each a whole record (every default, its date) was a quarter of
    // the read: each is made of its id, the caller's version and the fields read.
    const stored = fields.map((field) => [field, encodeKey(field), this.collection.defaults[field]] as const);
    const projection = { _id: 0, id: 1, ...Object.fromEntries(stored.map(([, key]) => [key, 1 as const])) };
    const documents = await this.#documents.find({ versionId }, { projection }).toArray();
    return documents.map((document) => {
      const record: CatalogRecord = { id: document['id'] as string, versionId };
      for (const [field, key, fallback] of stored) {
        const value = document[key];
        if (value !== undefined) record[field] = decodeValue(value);
        else if (fallback !== undefined) record[field] = typeof fallback === 'object' && fallback !== null ? structuredClone(fallback) : fallback;
      }
      return record;
    });
  }

  /**
   * The version's records whose `field` (dotted: an import's mark, `kvStorage.x-catalog.service`)
   * is `value` or absent, in id order: the records an import of one service may own, without the
   * other services' (their marks name them). Records made over HTTP have no mark and come too;
   * the caller keeps those its service's references reach (ownership/service-records.ts).
   */
  markedOrUnmarked(versionId: string, field: string, value: string): Promise<CatalogRecord[]> {
    return this.#inIdOrder({ versionId, $or: [{ [field]: value }, { [field]: { $exists: false } }] });
  }

  /**
   * The version's records whose top-level fields equal `fields` (an array value: any of its
   * items), in id order; with `only`, each with those top-level fields alone (and its id), the
   * others read as their defaults, as `allWith` reads them.
   */
  async matching(versionId: string, fields: Readonly<Record<string, string | readonly string[]>>, only?: readonly string[]): Promise<CatalogRecord[]> {
    const filter = Object.fromEntries(Object.entries(fields).map(([field, value]) => [field, typeof value === 'string' ? value : { $in: [...value] }]));
    const projection = only && { _id: 0, ...Object.fromEntries(['id', 'versionId', ...only].map((field) => [encodeKey(field), 1])) };
    return this.#inIdOrder({ ...filter, versionId }, projection);
  }

  /**
   * The version's records that have any of these top-level fields set to one of the values, in
   * id order: few records of a large version (the deprecated ones) found without reading the rest.
   */
  async withAnyOf(versionId: string, fields: Readonly<Record<string, readonly (string | boolean)[] | 'set'>>): Promise<CatalogRecord[]> {
    const conditions = Object.entries(fields).map(([field, values]) => ({ [encodeKey(field)]: values === 'set' ? { $exists: true } : { $in: [...values] } }));
    return this.#inIdOrder({ versionId, $or: conditions });
  }

  /** The records a filter finds, in id order (the unique index's), optionally with only some fields. */
  async #inIdOrder(filter: Document, projection?: Document): Promise<CatalogRecord[]> {
    const documents = await this.#documents.find(filter, projection && { projection }).sort({ versionId: 1, id: 1 }).toArray();
    return documents.map((document) => this.toRecord(document));
  }

  /**
   * Writes many records at once, in batches of unordered bulk writes: inserts of new records
   * (plain inserts: on FerretDB far cheaper than upserts), whole-record replaces of existing
   * ones, and deletes by id, all in the stored form of toDocument. A batch cut short leaves
   * records a sync finds again by natural key, so running it again completes it.
   */
  async bulk(versionId: string, writes: BulkWrites, updatedAt: Date, options: { revision?: boolean } = {}): Promise<void> {
    // An import sends every collection, most with nothing to write: no change, no new revision.
    if (!writes.insert?.length && !writes.replace?.length && !writes.delete?.length) return;
    const ids = [...(writes.insert ?? []), ...(writes.replace ?? [])].map((record) => record.id).concat(writes.delete ?? []);
    const write = () => writeInBatches(this.#documents, versionId, writes, {
      toDocument: (record) => this.#toDocument(record, updatedAt),
      exclusive: (ids, work) => this.#exclusiveAll(versionId, ids, work),
      refusal: async (document) => new NaturalKeyTaken((await this.#keyTaken(document)).holder, this.toRecord(document)),
    });
    // `revision: false`: the caller gives the version its revision once for several bulks (written).
    return options.revision === false ? write() : this.#changing(versionId, ids, write);
  }

  /** One new revision (its token) for `bulk(…, { revision: false })` writes to these collections: an import's (HeldWrite). */
  written(versionId: string, collections: readonly string[], ids: readonly string[], token?: string): Promise<string> {
    return this.#revisions.bump(versionId, collections, ids, token);
  }

  /** The record as a read of it after `bulk` at `updatedAt` returns it (defaults filled, dates as strings). */
  asStored(record: CatalogRecord, updatedAt: Date): CatalogRecord {
    return this.toRecord(this.#toDocument(record, updatedAt));
  }

  /** `work` under the locks of all these records (in id order, so two bulks never wait on each other). */
  #exclusiveAll<T>(versionId: string, ids: readonly string[], work: () => Promise<T>): Promise<T> {
    return [...ids].sort().reduceRight<() => Promise<T>>((inner, id) => () => this.exclusive(versionId, id, inner), work)();
  }

  list(query: ListQuery): Promise<Page> {
    return this.#pages.list(query);
  }

  /** Stored document → record (record.ts fromDocument; the natural key is stored only). */
  toRecord(document: Document): CatalogRecord {
    return fromDocument(document, this.collection.defaults, KEY_FIELD);
  }

  #toDocument(record: CatalogRecord, updatedAt: Date): StoredDocument {
    const key = naturalKeyOf(this.collection.naturalKey, record);
    return { ...toDocument(record, updatedAt), ...(key === undefined ? {} : { [KEY_FIELD]: key }) };
  }

  /**
   * Runs a write, then gives the version a new revision, whether the write succeeded or not (a
   * failed write may have changed some records: a bulk cut short, the second step of an update).
   * `ids`: the records the write may change, listed with the revision when few (revisions.ts).
   */
  async #changing<T>(versionId: string, ids: readonly string[], write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } finally {
      await this.#revisions.bump(versionId, [this.collection.name], ids);
    }
  }

  /** Runs a write that may set the natural key; a unique-index refusal becomes NaturalKeyTaken. */
  async #writeKeyed<T>(keyed: { versionId: string; [KEY_FIELD]: string | undefined }, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (!isDuplicate(error) || keyed[KEY_FIELD] === undefined) throw error;
      throw await this.#keyTaken(keyed);
    }
  }

  async #keyTaken(document: Document): Promise<NaturalKeyTaken> {
    const holder = await this.#documents.findOne({ versionId: document['versionId'], [KEY_FIELD]: document[KEY_FIELD] }, { projection: { id: 1 } });
    return new NaturalKeyTaken(holder ? String(holder['id']) : undefined);
  }
}

/** A projection on these top-level fields, the record's id and version. */
function onlyFields(fields: readonly string[]): Record<string, 0 | 1> {
  return { _id: 0, ...Object.fromEntries(['id', 'versionId', ...fields].map((field) => [encodeKey(field), 1 as const])) };
}
