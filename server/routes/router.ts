// Mounts the route table on an Express router, and answers 405 with `Allow` for the other
// methods on a known path. The only place routes meet Express.
import express from 'express';
import { MethodNotAllowed } from '../errors.ts';
import { handlerFor, type PipelineParts } from '../pipeline.ts';
import type { Route } from './table.ts';

export function catalogRouter(routes: readonly Route[], parts: PipelineParts): express.Router {
  const router = express.Router({ strict: true, caseSensitive: true });
  const methodsByPath = new Map<string, Set<string>>();
  for (const route of routes) {
    router[route.operation.method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete'](route.path, handlerFor(route, parts));
    const methods = methodsByPath.get(route.path) ?? new Set<string>();
    methods.add(route.operation.method);
    // Express answers HEAD with the GET handler.
    if (route.operation.method === 'GET') methods.add('HEAD');
    methodsByPath.set(route.path, methods);
  }
  for (const [path, methods] of methodsByPath) {
    const allowed = [...methods].sort();
    router.all(path, () => {
      throw new MethodNotAllowed(allowed);
    });
  }
  return router;
}
