// Many records written at once (imports, copies): batches of unordered bulk writes, each batch
// under its records' locks and with a taken natural key reported as single writes report it.
import type { AnyBulkWriteOperation, Collection as MongoCollection } from 'mongodb';
import { isDuplicateKey, KEY_FIELD } from './natural-keys.ts';
import { documentId, type BulkWrites, type CatalogRecord, type NaturalKeyTaken, type StoredDocument } from './record.ts';

/** Writes per bulk command: well under the 16 MB command limit for records of a few kB. */
const BULK_BATCH = 500;

/**
 * Replaces per bulk command, far fewer (one per statement: a re-import of Asana with one operation removed
 * never answered, and wedged the service). FerretDB 1.24's `update` handler (handler/msg_update.go,
 * updateDocument) runs each statement of one command as a query then a write, and closes each
 * statement's query iterator only when the whole command ends (`defer closer.Close()` inside the
 * loop over statements). A statement whose filter matches stops reading after its one document
 * (a limit-1 iterator), so its SQLite rows stay open and keep one connection of the backend's
 * pool (100, sqlite/metadata/pool/opendb.go) until the command ends. A command of ~100 matching
 * replaces takes every connection; its next query or write transaction then waits for one
 * forever (database/sql, no deadline), and so does every other request. `ordered: false` plays no
 * part (the handler ignores it), nor upserts that match nothing (their rows are read to the end).
 * Inserts and deletes close their reads at once. So replaces go a few per command, leaving most
 * of the pool to the rest of the service.
 */
const REPLACE_BATCH = 16;

/** What the record store lends a batch: its stored form, its locks and its refusal of a taken key. */
export interface BatchParts {
  toDocument(record: CatalogRecord): StoredDocument;
  exclusive(ids: readonly string[], work: () => Promise<void>): Promise<void>;
  refusal(document: StoredDocument): Promise<NaturalKeyTaken>;
}

export async function writeInBatches(documents: MongoCollection<StoredDocument>, versionId: string, writes: BulkWrites, parts: BatchParts): Promise<void> {
  // Deletes first, then replaces, then inserts: a record that takes over a natural key another
  // one gave up must not meet it in the unique `_key` index.
  const deletes = writes.delete ?? [];
  const replaces = (writes.replace ?? []).map((record) => parts.toDocument(record));
  const inserts = (writes.insert ?? []).map((record) => parts.toDocument(record));
  const phases: { ids: readonly string[]; documents: readonly StoredDocument[]; operations: AnyBulkWriteOperation<StoredDocument>[]; batch: number }[] = [
    { ids: deletes, documents: [], operations: deletes.map((id) => ({ deleteOne: { filter: { _id: documentId(versionId, id) } } })), batch: BULK_BATCH },
    {
      batch: REPLACE_BATCH,
      ids: replaces.map((document) => String(document['id'])), documents: replaces,
      operations: replaces.map((document) => ({ replaceOne: { filter: { _id: document._id }, replacement: document, upsert: true } })),
    },
    // New ids: nothing else can be writing them.
    { ids: [], documents: inserts, operations: inserts.map((document) => ({ insertOne: { document } })), batch: BULK_BATCH },
  ];
  for (const { ids, operations, documents: batch, batch: size } of phases) {
    for (let start = 0; start < operations.length; start += size) {
      const end = start + size;
      // Under each record's lock, as single writes are (FerretDB: a patch racing a replace must not undo it).
      await parts.exclusive(ids.slice(start, end), () => writeKeyed(documents, operations.slice(start, end), batch.slice(start, end), parts));
    }
  }
}

/** One unordered bulk write; a unique-index refusal becomes NaturalKeyTaken, as for single writes. */
async function writeKeyed(documents: MongoCollection<StoredDocument>, operations: AnyBulkWriteOperation<StoredDocument>[], batch: readonly StoredDocument[], parts: BatchParts): Promise<void> {
  try {
    await documents.bulkWrite(operations, { ordered: false });
  } catch (error) {
    const refused = (error as { writeErrors?: { index: number; code?: unknown; errmsg?: unknown }[] }).writeErrors
      ?.find((writeError) => isDuplicateKey({ code: writeError.code, message: writeError.errmsg }));
    const document = refused && batch[refused.index];
    if (!document || document[KEY_FIELD] === undefined) throw error;
    throw await parts.refusal(document);
  }
}
