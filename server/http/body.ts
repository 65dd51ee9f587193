// Reading a JSON request body: content type and charset (415), emptiness, declared and actual
// size (413), encoding (400), strict UTF-8 and syntax (400), then what one record may cost:
// nesting depth, total object keys and size, plus the checks JSON.parse does not make
// (well-formed Unicode, finite numbers).
import express from 'express';
import type { Request, Response } from 'express';
import { parse as parseContentType } from 'content-type';
import { InvalidRequest, PayloadTooLarge, UnsupportedMediaType } from '../errors.ts';
import { escapeToken } from '../json/pointer.ts';

/**
 * Default deepest nesting of objects and arrays a body may have. Bounding it before validation
 * keeps the recursive schemas (rich text, JSON Schemas) from recursing on hostile input. 64
 * leaves room for ~30 levels of rich-text nodes (each level is a node plus its `content` array).
 */
export const MAX_BODY_DEPTH = 64;

/** What one record (one request body) may cost; see the README's limits table. */
export interface RecordLimits {
  /** Bytes of the (decoded) JSON text. */
  maxBytes: number;
  /** Object keys, counted over every nested object. */
  maxKeys: number;
  /** Nesting of objects and arrays. */
  maxDepth: number;
}

export type BodyReader = (req: Request, res: Response) => Promise<unknown>;

/** express.raw's middleware: reads the body's bytes (inflated) into `req.body`. */
type RawReader = ReturnType<typeof express.raw>;

const ENCODINGS = new Set(['identity', 'gzip', 'deflate', 'br']);
// fatal: see utf8Text.
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

export function jsonBodyReader(limitBytes: number, limits: RecordLimits): BodyReader {
  // Bytes only: decoding and parsing are done here, strictly. inflate: gzip, deflate and br.
  const raw = express.raw({ limit: limitBytes, type: () => true, inflate: true });
  return async (req, res) => {
    checkContentType(req.headers['content-type']);
    // Refused from the header, before reading: the error answer closes the connection, so
    // the body need not be sent at all.
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limitBytes) {
      throw new PayloadTooLarge([{ field: 'Content-Length', message: `is larger than the ${limitBytes} bytes a body may have` }]);
    }
    const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
    if (!ENCODINGS.has(encoding)) {
      throw new UnsupportedMediaType([{ field: 'Content-Encoding', message: 'must be gzip, deflate, br or identity' }]);
    }
    const bytes = await readBytes(raw, req, res, (error) => translate(error, encoding));
    if (bytes.length > limits.maxBytes) throw new PayloadTooLarge([{ field: 'body', message: tooLarge(limits) }]);
    const text = utf8Text(bytes);
    let value: unknown;
    try {
      // strict JSON, but any value: `"x"`, `42`, `null` are answered by the operation as `/`
      // "must be a JSON object", not as "is not valid JSON".
      value = JSON.parse(text);
    } catch {
      throw InvalidRequest.field('body', 'is not valid JSON');
    }
    checkBody(value, limits);
    req.body = value;
    return value;
  };
}

/**
 * The body's bytes, read by `raw` with its errors turned into ours by `translate`; 400 when
 * there are none. Shared by every reader that decodes its body itself (JSON here, reports).
 */
export async function readBytes(raw: RawReader, req: Request, res: Response, translate: (error: unknown) => unknown): Promise<Buffer> {
  await new Promise<void>((resolve, reject) => raw(req, res, (error?: unknown) => (error ? reject(translate(error)) : resolve())));
  const bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
  if (bytes.length === 0) throw InvalidRequest.field('body', 'is empty');
  return bytes;
}

/** The bytes as text, strictly: invalid UTF-8 is 400, not replaced by U+FFFD and stored. */
export function utf8Text(bytes: Buffer): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    throw InvalidRequest.field('body', 'is not valid UTF-8');
  }
}

/** The media type of a Content-Type header, if it is one of `accepted` with charset utf-8 or none; 415 otherwise. */
export function acceptedMediaType(header: string | undefined, accepted: readonly string[]): string {
  const refusal = new UnsupportedMediaType([{ field: 'Content-Type', message: `must be ${accepted.join(', ')}` }]);
  let parsed: ReturnType<typeof parseContentType>;
  try {
    parsed = parseContentType(header ?? '');
  } catch {
    throw refusal;
  }
  if (!accepted.includes(parsed.type)) throw refusal;
  const charset = parsed.parameters['charset'];
  if (charset !== undefined && charset.toLowerCase() !== 'utf-8') {
    throw new UnsupportedMediaType([{ field: 'Content-Type', message: 'charset must be utf-8' }]);
  }
  return parsed.type;
}

/** `application/json`, charset utf-8 if any; 415 otherwise, named precisely. */
function checkContentType(header: string | undefined): void {
  acceptedMediaType(header, ['application/json']);
}

/** body-parser's errors → ours; a body that does not inflate is blamed on its encoding. */
function translate(error: unknown, encoding: string): unknown {
  const type = (error as { type?: unknown }).type;
  if (type === 'entity.too.large') return new PayloadTooLarge([{ field: 'body', message: 'is larger than the body limit' }]);
  if (typeof type === 'string') return error;
  if ((error as { status?: unknown }).status === 400) {
    return InvalidRequest.field('Content-Encoding', `body is not valid ${encoding} data`);
  }
  return error;
}

/** Throws when the value nests too deep, holds too many keys, a string that is not well-formed Unicode or a number out of range. */
export function checkBody(value: unknown, limits: Pick<RecordLimits, 'maxDepth' | 'maxKeys'> = { maxDepth: MAX_BODY_DEPTH, maxKeys: Infinity }): void {
  const problem = valueProblem(value, limits);
  if (problem) throw InvalidRequest.field(problem.field, problem.message);
}

/** A record limit broken, or a value JSON cannot carry: where in the record (a pointer), what, and whether it is the size (413). */
export interface RecordProblem {
  field: string;
  message: string;
  /** The limit is RECORD_MAX_BYTES (413 rather than 400). */
  tooLarge: boolean;
  /** The variable of the limit broken, if a limit was. */
  limit?: 'RECORD_MAX_BYTES' | 'RECORD_MAX_KEYS' | 'RECORD_MAX_DEPTH';
}

/**
 * What a record made elsewhere than from a request body (an import) would be refused for, as
 * a body: the checks of checkBody, then its size as JSON.
 */
export function recordProblem(record: unknown, limits: RecordLimits): RecordProblem | undefined {
  const problem = valueProblem(record, limits);
  if (problem) return problem;
  if (Buffer.byteLength(JSON.stringify(record)) <= limits.maxBytes) return undefined;
  return { field: '/', message: tooLarge(limits), tooLarge: true, limit: 'RECORD_MAX_BYTES' };
}

function tooLarge(limits: Pick<RecordLimits, 'maxBytes'>): string {
  return `is larger than the ${limits.maxBytes} bytes a record may have`;
}

function valueProblem(value: unknown, limits: Pick<RecordLimits, 'maxDepth' | 'maxKeys'>): RecordProblem | undefined {
  const budget = { left: limits.maxKeys, max: limits.maxKeys };
  const problem = findProblem(value, '', 0, limits.maxDepth, budget);
  return problem && { ...problem, field: problem.field || '/', tooLarge: false };
}

interface KeyBudget {
  left: number;
  readonly max: number;
}

function findProblem(value: unknown, pointer: string, depth: number, maxDepth: number, budget: KeyBudget): Omit<RecordProblem, 'tooLarge'> | undefined {
  // JSON.parse reads a number beyond the double range (`1e400`) as Infinity, which JSON cannot
  // print (it would come back as null) and FerretDB refuses to store (a 500).
  if (typeof value === 'number') {
    return Number.isFinite(value) ? undefined : { field: pointer, message: 'must be a number within the range of a double (about ±1.8e308)' };
  }
  if (typeof value === 'string') {
    return value.isWellFormed() ? undefined : { field: pointer, message: 'must be well-formed Unicode (no lone surrogates)' };
  }
  if (typeof value !== 'object' || value === null) return undefined;
  if (depth >= maxDepth) return { field: pointer, message: `nests deeper than ${maxDepth} levels`, limit: 'RECORD_MAX_DEPTH' };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const problem = findProblem(value[i], `${pointer}/${i}`, depth + 1, maxDepth, budget);
      if (problem) return problem;
    }
    return undefined;
  }
  const keys = Object.keys(value);
  // Counted before looking inside, so a huge object is refused without walking it.
  budget.left -= keys.length;
  if (budget.left < 0) return { field: '/', message: `has more than ${budget.max} object keys in all`, limit: 'RECORD_MAX_KEYS' };
  for (const key of keys) {
    const field = `${pointer}/${escapeToken(key)}`;
    if (!key.isWellFormed()) return { field, message: 'key must be well-formed Unicode (no lone surrogates)' };
    const problem = findProblem((value as Record<string, unknown>)[key], field, depth + 1, maxDepth, budget);
    if (problem) return problem;
  }
  return undefined;
}
