// Reading a JSON request body: content type (415), size (413), syntax (400), then the two
// checks JSON.parse does not make: nesting depth and well-formed Unicode.
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
  const parse = express.json({ limit: limitBytes, strict: true, type: 'application/json' });
  return async (req, res) => {
    if (!req.is('application/json')) {
      throw new UnsupportedMediaType([{ field: 'Content-Type', message: 'must be application/json' }]);
    }
    await new Promise<void>((resolve, reject) => parse(req, res, (error?: unknown) => (error ? reject(error) : resolve())));
    checkBody(req.body);
    return req.body;
  };
}

/** Throws InvalidRequest when the value nests too deep or holds a string that is not well-formed Unicode. */
export function checkBody(value: unknown): void {
  const problem = findProblem(value, '', 0);
  if (problem) throw InvalidRequest.field(problem.field || '/', problem.message);
}

function findProblem(value: unknown, pointer: string, depth: number): { field: string; message: string } | undefined {
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
