// What one record may cost, wherever it comes from (a request body, an import, a traffic
// report): nesting depth, total object keys and size as JSON, and the values JSON.parse lets
// through but JSON and the database cannot carry (lone surrogates, numbers beyond a double).
import { InvalidRequest } from '../errors.ts';
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

export function tooLarge(limits: Pick<RecordLimits, 'maxBytes'>): string {
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
