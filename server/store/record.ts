// What a record is to the store: its shape in the interface and as stored (`_id`, field order),
// the queries and writes the store takes, and the refusals it reports.
import type { Document } from 'mongodb';
import { decodeValue, encodeFields } from './codec.ts';
import type { SortKey } from './cursor.ts';

/** A record as the interface shows it: JSON, with `updatedAt` an ISO string. */
export type CatalogRecord = Record<string, unknown> & { id: string; versionId: string };

export interface ListQuery {
  versionId: string;
  /** Equality filters on reference and natural-key fields, already checked and typed. */
  filters: Readonly<Record<string, unknown>>;
  /** Only records written after this instant (exclusive). */
  updatedAfter?: Date | undefined;
  /** Ends with `id` (see cursor.ts). */
  sort: readonly SortKey[];
  /** Id of the first item of the page; undefined for the first page. */
  cursor: string | undefined;
  limit: number;
}

/**
 * A write whose records the writer holds (an import's plan, descriptions/sync.ts): the token its
 * bump gave the version, the collections that bump named, the records written as stored, by
 * collection, and the ids deleted. What keeps a version in memory can apply it without reading
 * anything back, when nothing else was listed between its base and `token` (revisions.ts listedBefore).
 */
export interface HeldWrite {
  token: string;
  collections: readonly string[];
  records: ReadonlyMap<string, readonly CatalogRecord[]>;
  deleted: ReadonlyMap<string, readonly string[]>;
}

export interface BulkWrites {
  insert?: readonly CatalogRecord[];
  replace?: readonly CatalogRecord[];
  /** Ids. */
  delete?: readonly string[];
}

export interface Page {
  items: CatalogRecord[];
  /** Id of the first item of the next page, or null. */
  nextCursor: string | null;
}

/** A record as stored: its fields (encoded), keyed by `_id` = version and id. */
export type StoredDocument = Document & { _id: string };

/** The cursor's item is gone and the sort needs its values to know where to resume. */
export class CursorGone extends Error {}

/** The write would give the record the natural key another record of the version holds. */
export class NaturalKeyTaken extends Error {
  /** Id of the record holding the key, when it could be read. */
  readonly holder: string | undefined;
  /** The record whose write was refused (its id and natural-key fields). */
  readonly refused: CatalogRecord | undefined;
  constructor(holder: string | undefined, refused?: CatalogRecord) {
    super('natural key taken');
    this.holder = holder;
    this.refused = refused;
  }
}

/**
 * The stored `_id`: version and record id together. An exact `_id` match is the one lookup
 * FerretDB pushes down to SQLite, and `_id` uniqueness makes `{versionId, id}` unique on insert.
 */
export function documentId(versionId: string, id: string): string {
  return `${versionId}:${id}`;
}

// `updatedAt` comes before the record's fields: FerretDB 1.24 compares the stored and the new
// document field by field on every replace, and its comparison of nested arrays costs 2^depth
// (types.compareArrays compares each element twice), so a record holding ~30 nested arrays made
// a replace run for minutes. A new updatedAt differs, so the comparison stops there.
export function toDocument(record: CatalogRecord, updatedAt: Date): StoredDocument {
  const { id, versionId, updatedAt: _ignored, ...fields } = record;
  return { _id: documentId(versionId, id), id, versionId, updatedAt, ...(encodeFields(fields) as Document) };
}

/**
 * Stored document → record: decoded, dates as ISO strings, `_id` and `hidden` stored-only fields
 * dropped, the collection's `defaults` filled. Writes answer with this too, so a response is
 * exactly what a later GET returns.
 */
export function fromDocument(document: Document, defaults: Readonly<Record<string, unknown>>, hidden: string): CatalogRecord {
  const { _id, updatedAt, [hidden]: _hidden, ...stored } = document;
  const record = decodeValue(stored) as Record<string, unknown>;
  for (const [field, value] of Object.entries(defaults)) {
    // Each record its own copy of an object default; a primitive needs none (and a clone per field per record showed in large reads).
    if (record[field] === undefined) record[field] = typeof value === 'object' && value !== null ? structuredClone(value) : value;
  }
  record['updatedAt'] = updatedAt instanceof Date ? updatedAt.toISOString() : (updatedAt ?? null);
  return record as CatalogRecord;
}

/** Stored values equal in keys, key order and values (what the database read back vs what we wrote). */
export function sameStored(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b) || a instanceof Date || b instanceof Date) return false;
  const aKeys = Object.keys(a);
  const bKeys = Object.keys(b);
  return aKeys.length === bKeys.length && aKeys.every((key, i) => key === bKeys[i]
    && sameStored((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}
