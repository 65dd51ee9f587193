// 405 for a known path and a method it does not serve, with `Allow`: the last handler of every
// route, catalog routes and the public ones (/healthz, /metrics, /v2/openapi.json, /docs) alike.
import type { RequestHandler } from 'express';
import { MethodNotAllowed } from '../errors.ts';

/** The methods `Allow` lists for a route serving `methods`: Express answers HEAD with GET. */
export function allowedMethods(methods: Iterable<string>): string[] {
  const allowed = new Set(methods);
  if (allowed.has('GET')) allowed.add('HEAD');
  return [...allowed].sort();
}

/** Last in a route, so it sees only the methods no handler took. */
export function refuseOtherMethods(methods: Iterable<string>): RequestHandler {
  const allowed = allowedMethods(methods);
  return () => {
    throw new MethodNotAllowed(allowed);
  };
}
