// Natural keys of every record kind, in one place: an import matches the records of a document
// to the stored ones by these. They are the keys the catalog enforces (decisions.md, The whole
// catalog); the kinds the contract gives none are keyed by name (url for servers) within the
// importing service, recorded in the `x-catalog` marker of their kvStorage (see mark below).
import type { Fields } from '../operations/record-body.ts';

export const NATURAL_KEYS: Readonly<Record<string, readonly string[]>> = {
  services: ['slug'],
  paths: ['serviceId', 'path'],
  operations: ['pathId', 'method'],
  parameters: ['pathId', 'operationId', 'in', 'name'],
  requests: ['operationId', 'contentMediaType'],
  responses: ['operationId', 'statusCode', 'contentMediaType'],
  'security-schemes': ['name'],
  // No key in the contract: named within the service that imported them.
  resources: ['kvStorage.x-catalog.service', 'name'],
  headers: ['kvStorage.x-catalog.service', 'name'],
  examples: ['kvStorage.x-catalog.service', 'name'],
  servers: ['serviceId', 'pathId', 'operationId', 'url'],
};

/** The key of a record of a collection, as one comparable string. */
export function naturalKey(collection: string, record: Fields): string {
  const fields = NATURAL_KEYS[collection];
  if (!fields) throw new Error(`no natural key for ${collection}`);
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
  /** Fields the import made up (an operationId the document did not have); export leaves them out. */
  generated?: string[];
}

export function markOf(record: Fields): Mark | undefined {
  const kv = record['kvStorage'] as Fields | undefined;
  return kv?.[MARK] as Mark | undefined;
}
