// How an import matches the records of a document to the stored ones: by the natural keys the
// catalog enforces, declared in schemas/collections.json (`naturalKey`); the kinds that have
// none (the contract gives them none) are keyed here by name (url for servers) within the
// importing service, recorded in the `x-catalog` marker of their kvStorage (see mark below).
import type { Fields } from '../operations/record-body.ts';
import type { Collection } from '../schemas/registry.ts';

const IMPORT_KEYS: Readonly<Record<string, readonly string[]>> = {
  resources: ['kvStorage.x-catalog.service', 'name'],
  headers: ['kvStorage.x-catalog.service', 'name'],
  examples: ['kvStorage.x-catalog.service', 'name'],
  servers: ['serviceId', 'pathId', 'operationId', 'url'],
};

/** The key of a record of a collection, as one comparable string. */
export function naturalKey(collection: Collection, record: Fields): string {
  const fields = collection.naturalKey.length > 0 ? collection.naturalKey : IMPORT_KEYS[collection.name];
  if (!fields) throw new Error(`no natural key for ${collection.name}`);
  return JSON.stringify(fields.map((field) => valueAt(record, field) ?? null));
}

function valueAt(record: Fields, dotted: string): unknown {
  // Keys like `x-catalog` hold no dots; split on the first two levels only.
  let value: unknown = record;
  for (const part of dotted.split('.')) value = value && typeof value === 'object' ? (value as Fields)[part] : undefined;
  return value;
}

/**
 * The import's marker in kvStorage: which service imported the record and where it stood in the
 * document (the order of paths, parameters and servers matters and records have no field for it).
 * Export drops it.
 */
export const MARK = 'x-catalog';

export interface Mark {
  service: string;
  order: number;
  /**
   * Fields the import made up, which export leaves out: `operationId` (the document had none),
   * or a pointer into a field (`/variables/<name>/enum`: a server variable without an enum).
   */
  generated?: string[];
}

export function markOf(record: Fields): Mark | undefined {
  const kv = record['kvStorage'] as Fields | undefined;
  return kv?.[MARK] as Mark | undefined;
}
