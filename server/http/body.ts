// Reading a JSON request body: content type (415), size (413), syntax (400), then the three
// checks JSON.parse does not make: nesting depth, well-formed Unicode and finite numbers.
import express from 'express';
import type { Request, Response } from 'express';
import { InvalidRequest, UnsupportedMediaType } from '../errors.ts';

/**
 * Deepest nesting of objects and arrays a body may have. Bounding it before validation keeps
 * the recursive schemas (rich text, JSON Schemas) from recursing on hostile input. 64 leaves
 * room for ~30 levels of rich-text nodes (each level is a node plus its `content` array).
 */
export const MAX_BODY_DEPTH = 64;

export type BodyReader = (req: Request, res: Response) => Promise<unknown>;

export function jsonBodyReader(limitBytes: number): BodyReader {
  // strict: false, so a body that is valid JSON but not an object (`"x"`, `42`, `null`) is
  // answered by the operation as `/` "must be a JSON object", not as "is not valid JSON".
  const parse = express.json({ limit: limitBytes, strict: false, type: 'application/json' });
  return async (req, res) => {
    if (!req.is('application/json')) {
      throw new UnsupportedMediaType([{ field: 'Content-Type', message: 'must be application/json' }]);
    }
    await new Promise<void>((resolve, reject) => parse(req, res, (error?: unknown) => (error ? reject(error) : resolve())));
    checkBody(req.body);
    return req.body;
  };
}

/** Throws InvalidRequest when the value nests too deep, holds a string that is not well-formed Unicode or a number out of range. */
export function checkBody(value: unknown): void {
  const problem = findProblem(value, '', 0);
  if (problem) throw InvalidRequest.field(problem.field || '/', problem.message);
}

function findProblem(value: unknown, pointer: string, depth: number): { field: string; message: string } | undefined {
  // JSON.parse reads a number beyond the double range (`1e400`) as Infinity, which JSON cannot
  // print (it would come back as null) and FerretDB refuses to store (a 500).
  if (typeof value === 'number') {
    return Number.isFinite(value) ? undefined : { field: pointer, message: 'must be a number within the range of a double (about ±1.8e308)' };
  }
  if (typeof value === 'string') {
    return value.isWellFormed() ? undefined : { field: pointer, message: 'must be well-formed Unicode (no lone surrogates)' };
  }
  if (typeof value !== 'object' || value === null) return undefined;
  if (depth >= MAX_BODY_DEPTH) return { field: pointer, message: `nests deeper than ${MAX_BODY_DEPTH} levels` };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const problem = findProblem(value[i], `${pointer}/${i}`, depth + 1);
      if (problem) return problem;
    }
    return undefined;
  }
  for (const key of Object.keys(value)) {
    const field = `${pointer}/${escapePointer(key)}`;
    if (!key.isWellFormed()) return { field, message: 'key must be well-formed Unicode (no lone surrogates)' };
    const problem = findProblem((value as Record<string, unknown>)[key], field, depth + 1);
    if (problem) return problem;
  }
  return undefined;
}

/** JSON Pointer escaping (RFC 6901). */
export function escapePointer(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}
