// The indexes of one record collection: what every query of the store and of data teams is
// served by (docs/storage.md lists them).
import type { CompiledCollection } from '../schemas/registry.ts';
import { MARKED_SERVICE } from './mark.ts';
import { KEY_FIELD } from './natural-keys.ts';

/**
 * The most values one `$in` read names: the FerretDB build serves an `$in` of up to 500 values
 * by an index (scripts/ferretdb/patches/pushdown.go, `pushdownMaxIn`) and decodes every document
 * its other conditions select for a longer one. Longer lists are read in slices of this many.
 */
export const IN_READ_MAX = 500;

/** Values in slices of IN_READ_MAX, one `$in` read each (a read per value costs a round trip each: 773 for an export of Netlify). */
export function inSlices<T>(values: readonly T[]): T[][] {
  const sliced: T[][] = [];
  for (let start = 0; start < values.length; start += IN_READ_MAX) sliced.push(values.slice(start, start + IN_READ_MAX));
  return sliced;
}

export interface IndexSpec {
  key: Record<string, number>;
  name: string;
  unique?: boolean;
}

/**
 * The unique `{versionId, id}` index, one per filter field (serving filter + default order),
 * and `updatedAt` (the one sort every record has) both ways: `id` ascending breaks its ties
 * either way, and an index read backwards gives `-updatedAt` with `id` descending, so without
 * the second a page of `-updatedAt` sorted the whole version first (MongoDB too). Other sorts are served by the
 * `{versionId, id}` prefix plus an in-memory sort of one version's records; the lookups by a
 * field that names a record (lookupFields); and an import's mark (the records of one service).
 */
export function recordIndexes(collection: CompiledCollection): IndexSpec[] {
  return [
    { key: { versionId: 1, id: 1 }, name: 'versionId_id', unique: true },
    { key: { versionId: 1, updatedAt: 1, id: 1 }, name: 'versionId_updatedAt_id' },
    { key: { versionId: 1, updatedAt: -1, id: 1 }, name: 'versionId_updatedAtDesc_id' },
    ...[...collection.filters.keys()].map((field) => ({ key: { versionId: 1, [field]: 1, id: 1 }, name: `versionId_${field}_id` })),
    // The natural key, as one string that every record of the collection has: unique indexes
    // hold under races on MongoDB and on FerretDB 1.24 (SQLite), but FerretDB lets two
    // documents both MISSING a part of a compound unique index through (SQLite: NULLs are
    // distinct), so the parts are never indexed one by one. See docs/storage.md.
    ...(collection.naturalKey.length > 0 ? [{ key: { versionId: 1, [KEY_FIELD]: 1 }, name: 'versionId_naturalKey', unique: true }] : []),
    // Lookups by a field that names a record without being a list filter: a `$ref`'s component
    // by its key (Resources by `name`: an operation's schemas, an export's), an operation by its
    // operationId (its page, MCP get_endpoint). Without the index each read walks the version's
    // records of the collection (a Resource by name: 613 ms among 4,648, 5 ms with it).
    ...lookupFields(collection).map((field) => ({ key: { versionId: 1, [field]: 1, id: 1 }, name: `versionId_${field}_id` })),
    // An import, an export and a one-service changes report read a service's records by their
    // mark (markedOrUnmarked): the mark's service, or none. On FerretDB too, whose build pushes an
    // $or on one dotted path down as index ranges (docs/database.md).
    { key: { versionId: 1, [MARKED_SERVICE]: 1, id: 1 }, name: 'versionId_importService_id' },
  ];
}

/** Operations are named by operationId in pages and MCP; each component kind by its key. */
const LOOKUPS: Readonly<Record<string, readonly string[]>> = { operations: ['operationId'] };

function lookupFields(collection: CompiledCollection): string[] {
  const fields = [...LOOKUPS[collection.name] ?? [], ...(collection.component ? [collection.component.key] : [])];
  return fields.filter((field) => !collection.filters.has(field));
}
