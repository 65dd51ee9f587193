// Mounts endpoints (the record route table and the version routes) on an Express router, and
// answers 405 with `Allow` for the other methods on a known path. The only place routes meet
// Express.
import express from 'express';
import { MethodNotAllowed } from '../errors.ts';
import { handlerFor, type Endpoint, type PipelineParts } from '../pipeline.ts';

export function catalogRouter(endpoints: readonly Endpoint[], parts: PipelineParts): express.Router {
  const router = express.Router({ strict: true, caseSensitive: true });
  const methodsByPath = new Map<string, Set<string>>();
  for (const endpoint of endpoints) {
    router[endpoint.method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete'](endpoint.path, handlerFor(endpoint, parts));
    const methods = methodsByPath.get(endpoint.path) ?? new Set<string>();
    methods.add(endpoint.method);
    // Express answers HEAD with the GET handler.
    if (endpoint.method === 'GET') methods.add('HEAD');
    methodsByPath.set(endpoint.path, methods);
  }
  for (const [path, methods] of methodsByPath) {
    const allowed = [...methods].sort();
    router.all(path, () => {
      throw new MethodNotAllowed(allowed);
    });
  }
  return router;
}
