// A whole version's records across every collection: copying them into another version (ids
// kept), purging them, and comparing two versions. Generic over the collection descriptors,
// streamed in batches so memory stays flat however large the version.
import { isDeepStrictEqual } from 'node:util';
import type { CollectionDifference } from '../schemas/generated/types.ts';
import type { Collection as MongoCollection, Db, Document } from 'mongodb';
import type { CompiledCollection } from '../schemas/registry.ts';
import { documentId } from './records.ts';
import type { Revisions } from '../tenancy/revisions.ts';

/** Record ids of one collection that differ between two versions, each list capped (schemas/api/version.json). */
export type CollectionDiff = CollectionDifference;

/** Documents per insertMany, and per batch read from the source. */
export const COPY_BATCH = 1000;
export const DIFF_CAP = 1000;
/** Below SQLite's limit of 32,766 bound variables per statement (see purge). */
const PURGE_BATCH = 10_000;

// Stored fields that belong to the version rather than the record's content.
const VERSION_FIELDS = ['_id', 'versionId', 'updatedAt'];

/**
 * A collection that belongs to versions without holding records (insights' observations): its
 * documents have `versionId`, `id` and `_id` = versionId:id like records, are purged with the
 * version and, when `copied`, copied with it, but are never part of a diff.
 */
export interface VersionCompanion {
  name: string;
  copied: boolean;
}

export class VersionRecords {
  readonly #collections: ReadonlyMap<string, MongoCollection<Document>>;
  /** Record collections, then companions: what copy and purge walk. */
  readonly #copied: ReadonlyMap<string, MongoCollection<Document>>;
  readonly #purged: ReadonlyMap<string, MongoCollection<Document>>;
  readonly #purgeBatch: number;
  readonly #revisions: Revisions;

  /** `revisions`: the tenancy's. `purgeBatch` is for tests, which slice small versions to exercise the sliced purge. */
  constructor(db: Db, collections: readonly CompiledCollection[], revisions: Revisions, { purgeBatch = PURGE_BATCH, companions = [] }: { purgeBatch?: number; companions?: readonly VersionCompanion[] } = {}) {
    this.#purgeBatch = purgeBatch;
    this.#revisions = revisions;
    // A null-prototype fieldsAsRaw, as in RecordStore: arrays under keys like `__proto__` would
    // otherwise come back as raw BSON buffers and be copied as such.
    const open = (name: string) => [name, db.collection(name, { fieldsAsRaw: Object.create(null) as Document })] as const;
    this.#collections = new Map(collections.map((collection) => open(collection.name)));
    this.#copied = new Map([...this.#collections, ...companions.filter((companion) => companion.copied).map((companion) => open(companion.name))]);
    this.#purged = new Map([...this.#collections, ...companions.map((companion) => open(companion.name))]);
  }

  /**
   * Copies every record of `from` into `to`, keeping ids and every stored field (updatedAt
   * included) but `_id` and `versionId`. Stored documents are copied as stored, so nothing is
   * decoded and re-encoded. `onBatch` runs after each insertMany (the copier's heartbeat).
   * `to` gets a new revision after the copy, as after any write to its records.
   */
  async copy(from: string, to: string, onBatch: (copied: number) => Promise<void> = async () => {}): Promise<number> {
    let copied = 0;
    // Before any record is read: a write to the source from here on leaves it past this revision.
    const source = (await this.#revisions.of(from))?.token ?? '';
    for (const documents of this.#copied.values()) {
      let batch: Document[] = [];
      const flush = async () => {
        if (batch.length === 0) return;
        await documents.insertMany(batch, { ordered: true });
        copied += batch.length;
        batch = [];
        await onBatch(copied);
      };
      for await (const document of documents.find({ versionId: from }, { batchSize: COPY_BATCH })) {
        batch.push({ ...document, _id: documentId(to, String(document['id'])), versionId: to });
        if (batch.length >= COPY_BATCH) await flush();
      }
      await flush();
    }
    await this.#revisions.bump(to, [...this.#collections.keys()]);
    await this.#revisions.markCopy(to, from, source);
    return copied;
  }

  /**
   * Removes every record of the version; how many there were. In slices of at most
   * PURGE_BATCH records by id range: FerretDB 1.24 binds every matched `_id` to one SQLite
   * statement, and one deleteMany of a 100,000-record version failed with "too many SQL
   * variables"; a `$in` of the ids instead was slow there (~70 s for 10,000 under load), and
   * slicing costs a sorted scan per slice, so it is only done for versions that need it.
   */
  async purge(versionId: string): Promise<number> {
    let removed = 0;
    for (const documents of this.#purged.values()) {
      // Most versions fit one statement: then one plain deleteMany, the cheapest on FerretDB.
      const large = await documents.find({ versionId }, { projection: { _id: 1 } }).skip(this.#purgeBatch).limit(1).next();
      if (!large) {
        removed += (await documents.deleteMany({ versionId })).deletedCount;
        continue;
      }
      for (;;) {
        // The id that ends the first slice; none when fewer than a slice remain.
        const boundary = await documents.find({ versionId }, { projection: { _id: 0, id: 1 } })
          .sort({ id: 1 }).skip(this.#purgeBatch - 1).limit(1).next();
        const filter = boundary ? { versionId, id: { $lte: boundary['id'] } } : { versionId };
        removed += (await documents.deleteMany(filter)).deletedCount;
        if (!boundary) break;
      }
    }
    return removed;
  }

  /**
   * Per collection, what `versionId` has that `against` has not: a sort-merge of both
   * versions' records by id, one document of each side in hand at a time.
   */
  async diff(versionId: string, against: string, cap = DIFF_CAP): Promise<Record<string, CollectionDiff>> {
    const result: Record<string, CollectionDiff> = {};
    for (const [name, documents] of this.#collections) {
      const ours = documents.find({ versionId }, { batchSize: COPY_BATCH }).sort({ id: 1 })[Symbol.asyncIterator]();
      const theirs = documents.find({ versionId: against }, { batchSize: COPY_BATCH }).sort({ id: 1 })[Symbol.asyncIterator]();
      const diff: CollectionDiff = { added: [], removed: [], changed: [], truncated: false };
      const note = (list: string[], id: string) => {
        if (list.length < cap) list.push(id);
        else diff.truncated = true;
      };
      let a = await ours.next();
      let b = await theirs.next();
      while (!a.done || !b.done) {
        const aId = a.done ? undefined : String(a.value['id']);
        const bId = b.done ? undefined : String(b.value['id']);
        if (bId === undefined || (aId !== undefined && aId < bId)) {
          note(diff.added, aId!);
          a = await ours.next();
        } else if (aId === undefined || bId < aId) {
          note(diff.removed, bId);
          b = await theirs.next();
        } else {
          if (!sameContent(a.value as Document, b.value as Document)) note(diff.changed, aId);
          a = await ours.next();
          b = await theirs.next();
        }
      }
      result[name] = diff;
    }
    return result;
  }
}

function sameContent(a: Document, b: Document): boolean {
  return isDeepStrictEqual(content(a), content(b));
}

function content(document: Document): Document {
  const copy = { ...document };
  for (const field of VERSION_FIELDS) delete copy[field];
  return copy;
}
