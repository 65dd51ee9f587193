// Mounts the route table on an Express router, and answers 405 with `Allow` for the other
// methods on a known path. The only place routes meet Express.
import express from 'express';
import { MethodNotAllowed } from '../errors.ts';
import { handlerFor, versionHandlerFor, type PipelineParts } from '../pipeline.ts';
import type { Route } from './table.ts';
import type { VersionRoute } from './version-routes.ts';

export function catalogRouter(routes: readonly Route[], parts: PipelineParts, versionRoutes: readonly VersionRoute[] = []): express.Router {
  const router = express.Router();
  const methodsByPath = new Map<string, Set<string>>();
  const mount = (path: string, method: string, handler: express.RequestHandler): void => {
    router[method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete'](path, handler);
    const methods = methodsByPath.get(path) ?? new Set<string>();
    methods.add(method);
    // Express answers HEAD with the GET handler.
    if (method === 'GET') methods.add('HEAD');
    methodsByPath.set(path, methods);
  };
  for (const route of routes) mount(route.path, route.operation.method, handlerFor(route, parts));
  for (const route of versionRoutes) mount(route.path, route.operation.method, versionHandlerFor(route, parts));
  for (const [path, methods] of methodsByPath) {
    const allowed = [...methods].sort();
    router.all(path, () => {
      throw new MethodNotAllowed(allowed);
    });
  }
  return router;
}
