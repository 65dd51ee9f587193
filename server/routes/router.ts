// Mounts endpoints (the record route table and the version routes) on an Express router, and
// answers 405 with `Allow` for the other methods on a known path. The only place routes meet
// Express.
import express from 'express';
import { MethodNotAllowed } from '../errors.ts';
import { handlerFor, type Endpoint, type PipelineParts } from '../pipeline.ts';

export function catalogRouter(endpoints: readonly Endpoint[], parts: PipelineParts): express.Router {
  const router = express.Router({ strict: true, caseSensitive: true });
  // One Express route per path, holding all its methods: a request is matched against each
  // path once, not once per method (family P's paths come after family V's, so with a layer per
  // endpoint a P request walked every V endpoint first, measurably: get-p cost 7-33% more CPU).
  const routes = new Map<string, { route: express.IRoute; methods: Set<string> }>();
  for (const endpoint of endpoints) {
    const entry = routes.get(endpoint.path) ?? { route: router.route(endpoint.path), methods: new Set<string>() };
    routes.set(endpoint.path, entry);
    entry.route[endpoint.method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete'](handlerFor(endpoint, parts));
    entry.methods.add(endpoint.method);
    // Express answers HEAD with the GET handler.
    if (endpoint.method === 'GET') entry.methods.add('HEAD');
  }
  // Last in each route, so it sees only the methods no handler took.
  for (const { route, methods } of routes.values()) {
    const allowed = [...methods].sort();
    route.all(() => {
      throw new MethodNotAllowed(allowed);
    });
  }
  return router;
}
