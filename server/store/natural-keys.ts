// The natural key as stored: one string per record (`_key`) under a unique index, and keeping
// every stored `_key` true to its collection's declaration when records predate it or the
// declaration changes (see docs/storage.md).
import type { Collection as MongoCollection, Db, Document } from 'mongodb';
import { keyOf } from '../schemas/record-keys.ts';
import type { CompiledCollection } from '../schemas/registry.ts';

/** The stored field holding the canonical natural key (see naturalKeyOf); never part of a record. */
export const KEY_FIELD = '_key';
/** One document per keyed collection: the key fields its stored `_key`s were made from. */
const DECLARATIONS = 'naturalKeys';

/** The natural key as stored (keyOf, which imports match by too); undefined when the kind has none. */
export function naturalKeyOf(fields: readonly string[], record: Record<string, unknown>): string | undefined {
  return fields.length === 0 ? undefined : keyOf(fields, record);
}

/** Two stored records would share a key under the declaration: people must decide which keeps it. */
export class KeysCollide extends Error {}

/**
 * Gives every stored record of the collection the `_key` its declaration makes: records stored
 * before `_key` existed, and, once after the declaration changed (security schemes went from
 * `name` to `serviceId, name`), every record. Then remembers the declaration. `decode` turns a
 * stored document into the record's fields.
 */
export async function backfillKeys(db: Db, documents: MongoCollection<Document & { _id: string }>, collection: CompiledCollection,
  decode: (document: Document) => Record<string, unknown>): Promise<void> {
  const fields = collection.naturalKey;
  if (fields.length === 0) return;
  const declarations = db.collection<{ _id: string; fields: string[] }>(DECLARATIONS);
  const declared = await declarations.findOne({ _id: collection.name });
  const changed = JSON.stringify(declared?.fields) !== JSON.stringify(fields);
  const projection = Object.fromEntries(['versionId', 'id', KEY_FIELD, ...fields].map((field) => [field, 1]));
  for await (const document of documents.find(changed ? {} : { [KEY_FIELD]: { $exists: false } }, { projection })) {
    const key = naturalKeyOf(fields, decode(document));
    if (document[KEY_FIELD] === key) continue;
    try {
      await documents.updateOne({ _id: document._id }, { $set: { [KEY_FIELD]: key } });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      throw new KeysCollide(`${collection.name}: record ${String(document['id'])} of version ${String(document['versionId'])} has the natural key ${key} (${fields.join(', ')}) another record of the version holds; change one of them, then start again`);
    }
  }
  if (!changed) return;
  try {
    await declarations.updateOne({ _id: collection.name }, { $set: { fields: [...fields] } }, { upsert: true });
  } catch (error) {
    // Another instance starting at the same time upserted it first.
    if (!isDuplicateKey(error)) throw error;
  }
}

const DUPLICATE_KEY = 11000;

/**
 * A unique index refused the write: MongoDB and FerretDB inserts say 11000; FerretDB 1.24's
 * updates and replaces only pass on SQLite's message (code 1, "UNIQUE constraint failed").
 */
export function isDuplicateKey(error: unknown): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  return code === DUPLICATE_KEY || (code === 1 && typeof message === 'string' && message.includes('UNIQUE constraint failed'));
}
