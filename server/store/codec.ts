// Storage codec: owns the reversible mapping between API JSON values and what MongoDB/FerretDB store.
// The stored form is documented for data teams in docs/storage-encoding.md; change both together.
//
// Why: FerretDB 1.24 rejects keys starting with `$` or containing `.`, nested arrays and NUL in
// strings, and turns -0 into 0; the Node driver turns a sub-document starting `$ref`,`$id` into
// a DBRef. Keys are escaped with full-width look-alikes (queryable: {"schema.＄ref": ...}), and
// values the database cannot hold go into single-key wrapper objects whose key is `＼` + an ASCII
// letter: an encoded user key never has that form (after `＼` it only has `＼`, `＄`, `．`, `0` or
// the `_` of `＼_id`).

import { setMember } from '../json/values.ts';

const ESC = '\uFF3C'; // ＼ FULLWIDTH REVERSE SOLIDUS: escape character
const FW_DOLLAR = '\uFF04'; // ＄ stands for `$`
const FW_DOT = '\uFF0E'; // ． stands for `.`
const WRAP_ARRAY = ESC + 'a'; // {"＼a": [...]}: an array directly inside an array
const WRAP_NUMBER = ESC + 'n'; // {"＼n": "-0"}: negative zero
const WRAP_STRING = ESC + 's'; // {"＼s": "<JSON text>"}: a string containing NUL
const WRAP_JSON = ESC + 'j'; // {"＼j": "<JSON text of the encoded value>"}: a large record field

/**
 * Entries (object keys and array items, at every depth) above which a record field's value is
 * stored as JSON text. FerretDB 1.24 reads whole collections and decodes every key of every
 * document on each scan: a record of ~10,000 keys made each list of its collection take ~0.6 s
 * (and its write and get as long); as one string it costs what a small record costs.
 */
export const TEXT_ENTRIES = 256;

// JSON.rawJSON / JSON.isRawJSON exist in Node 24 (V8) but not in the es2024 TS lib; typed
// locally rather than by augmenting the global JSON (other modules may declare it too).
const RawJSON = JSON as unknown as {
  rawJSON?: (text: string) => object;
  isRawJSON?: (value: unknown) => boolean;
};
if (typeof RawJSON.rawJSON !== 'function' || typeof RawJSON.isRawJSON !== 'function') {
  throw new Error('storage codec needs JSON.rawJSON (Node 24)');
}
const isRawJSON = RawJSON.isRawJSON as (value: unknown) => boolean;
// Decoded -0. A plain -0 would be printed as `0` by JSON.stringify, so we return the raw JSON
// text `-0`: JSON.stringify (and so the HTTP layer, unchanged) prints it as `-0`. It is a
// frozen null-prototype object `{ rawJSON: '-0' }`, so one instance is shared. Callers that
// compute on decoded values (not just serialise them) must expect it; encodeValue accepts it.
const NEGATIVE_ZERO: unknown = RawJSON.rawJSON('-0');

function isSpecialKeyChar(c: number): boolean {
  return c === 0x24 || c === 0x2e || c === 0 || c === 0xff3c || c === 0xff04 || c === 0xff0e;
}

export function encodeKey(key: string): string {
  // FerretDB 1.24 moves an `_id` key to the front of every object, at any depth (validateData),
  // so {"a": 1, "_id": 2} came back reordered. `＼_id` decodes to `_id` by the rule below.
  if (key === '_id') return ESC + key;
  const n = key.length;
  let i = 0;
  while (i < n && !isSpecialKeyChar(key.charCodeAt(i))) i++;
  if (i === n) return key; // hot path: nothing to escape, no allocation
  let out = key.slice(0, i);
  for (; i < n; i++) {
    const ch = key[i] as string;
    if (ch === '$') out += FW_DOLLAR;
    else if (ch === '.') out += FW_DOT;
    // Escape the escape characters first so literal ＼ ＄ ． in user keys survive the round trip.
    else if (ch === ESC || ch === FW_DOLLAR || ch === FW_DOT) out += ESC + ch;
    else if (ch === '\0') out += ESC + '0';
    else out += ch;
  }
  return out;
}

export function decodeKey(key: string): string {
  const n = key.length;
  let i = 0;
  while (i < n && key.charCodeAt(i) < 0xff04) i++; // all three markers are >= U+FF04
  if (i === n) return key;
  let out = key.slice(0, i);
  for (; i < n; i++) {
    const ch = key[i] as string;
    if (ch === ESC && i + 1 < n) {
      const next = key[++i] as string;
      out += next === '0' ? '\0' : next;
    } else if (ch === FW_DOLLAR) out += '$';
    else if (ch === FW_DOT) out += '.';
    else out += ch;
  }
  return out;
}

// Plain JSON objects only; Date, ObjectId, Binary and other class instances pass through.
function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function encodeArray(arr: readonly unknown[], out: unknown[]): unknown[] {
  for (let i = 0; i < arr.length; i++) {
    const v = arr[i];
    // An array directly inside an array is wrapped; arrays under object keys stay arrays.
    out.push(Array.isArray(v) ? { [WRAP_ARRAY]: encodeArray(v, []) } : encodeValue(v));
  }
  return out;
}

export function encodeValue(value: unknown): unknown {
  switch (typeof value) {
    case 'string':
      // JSON.stringify writes NUL as \u0000, so the stored text holds no NUL.
      return value.indexOf('\0') === -1 ? value : { [WRAP_STRING]: JSON.stringify(value) };
    case 'number':
      return value === 0 && 1 / value < 0 ? { [WRAP_NUMBER]: '-0' } : value;
    case 'object': {
      if (value === null) return value;
      if (Array.isArray(value)) return encodeArray(value, []);
      // A decoded -0 (or any raw JSON) written back, e.g. by a read-modify-write.
      if (isRawJSON(value)) return encodeValue(JSON.parse((value as { rawJSON: string }).rawJSON));
      if (!isPlainObject(value)) return value;
      const src = value as Record<string, unknown>;
      const out: Record<string, unknown> = {}; // Object.prototype: the driver expects plain objects
      for (const key of Object.keys(src)) setMember(out, encodeKey(key), encodeValue(src[key]));
      return out;
    }
    default:
      return value; // booleans (and anything non-JSON) as is
  }
}

/** A record's fields as stored: keys escaped, values encoded, each large value as JSON text. */
export function encodeFields(fields: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(fields)) setMember(out, encodeKey(key), encodeField(fields[key]));
  return out;
}

/** One record field's stored value (see TEXT_ENTRIES). */
export function encodeField(value: unknown): unknown {
  const encoded = encodeValue(value);
  return typeof value === 'object' && value !== null && hasMoreEntries(value, TEXT_ENTRIES) ? { [WRAP_JSON]: JSON.stringify(encoded) } : encoded;
}

/** Whether the value holds more than `limit` object keys and array items in all, counted until it does. */
function hasMoreEntries(value: object, limit: number): boolean {
  let left = limit;
  const pending: object[] = [value];
  while (pending.length > 0) {
    const items = Object.values(pending.pop()!);
    left -= items.length;
    if (left < 0) return true;
    for (const item of items) if (typeof item === 'object' && item !== null) pending.push(item);
  }
  return false;
}

function isWrapperKey(key: string): boolean {
  if (key.length !== 2 || key.charCodeAt(0) !== 0xff3c) return false;
  const c = key.charCodeAt(1) | 0x20; // ASCII letter, either case
  return c >= 0x61 && c <= 0x7a;
}

function unwrap(key: string, payload: unknown): unknown {
  if (key === WRAP_ARRAY && Array.isArray(payload)) return decodeArray(payload);
  if (key === WRAP_NUMBER && payload === '-0') return NEGATIVE_ZERO;
  if (key === WRAP_JSON && typeof payload === 'string') return decodeValue(JSON.parse(payload));
  if (key === WRAP_STRING && typeof payload === 'string') {
    const s: unknown = JSON.parse(payload);
    if (typeof s === 'string') return s;
  }
  // Never guess: an unknown or malformed wrapper means data we did not write (or a newer format).
  throw new Error(`storage codec: cannot decode wrapper ${JSON.stringify(key)}`);
}

function decodeArray(arr: unknown[]): unknown[] {
  for (let i = 0; i < arr.length; i++) {
    const v = arr[i];
    if (typeof v === 'object' && v !== null) arr[i] = decodeValue(v);
  }
  return arr;
}

/**
 * A stored value as the record's JSON value. It takes the value it is given, as read from the
 * database, and decodes it in place: an object keeps its identity unless one of its keys was
 * encoded (it is then rebuilt, to keep the key order). A whole version is decoded on a search
 * index's first build, and copying every object of it cost as much as reading it did.
 */
export function decodeValue(stored: unknown): unknown {
  if (typeof stored !== 'object' || stored === null) return stored; // primitives are stored as is
  if (Array.isArray(stored)) return decodeArray(stored);
  if (!isPlainObject(stored)) return stored; // Date (caller's top-level dates), ObjectId, ...
  const src = stored as Record<string, unknown>;
  const keys = Object.keys(src);
  if (keys.length === 1) {
    const only = keys[0] as string;
    if (isWrapperKey(only)) return unwrap(only, src[only]);
  }
  let renamed = false;
  for (const key of keys) {
    const v = src[key];
    if (typeof v === 'object' && v !== null) {
      const decoded = decodeValue(v);
      if (decoded !== v) setMember(src, key, decoded);
    }
    if (!renamed && decodeKey(key) !== key) renamed = true;
  }
  if (!renamed) return src;
  const out: Record<string, unknown> = {};
  for (const key of keys) setMember(out, decodeKey(key), src[key]);
  return out;
}
