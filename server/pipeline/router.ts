// Mounts endpoints (the record route table and the version routes) on an Express router, and
// answers 405 with `Allow` for the other methods on a known path (http/allowed-methods.ts). The
// only place catalog routes meet Express.
import express from 'express';
import { refuseOtherMethods } from '../http/allowed-methods.ts';
import { nameRoute } from '../http/request-log.ts';
import { handlerFor, type Endpoint, type PipelineParts } from './handler.ts';
import { FAMILIES } from '../records/table.ts';

const OPTIONS = { strict: true, caseSensitive: true } as const;

interface MountedRoute {
  route: express.IRoute;
  /** The whole template, for logs and metrics. */
  template: string;
  methods: Set<string>;
}

export function catalogRouter(endpoints: readonly Endpoint[], parts: PipelineParts): express.Router {
  const router = express.Router(OPTIONS);
  // The routes below a family's prefix live in a router of their own, mounted at the prefix: a
  // request is matched against the two prefixes, then against its family's routes only, rather
  // than a family P request trying every family V route first. (Measured back to back, P cost
  // what V cost either way: docs/benchmark.md.)
  const families = new Map(FAMILIES.map(({ prefix }) => [prefix, express.Router({ ...OPTIONS, mergeParams: true })]));
  const routes = new Map<string, MountedRoute>();
  for (const endpoint of endpoints) {
    const entry = routes.get(endpoint.path) ?? mount(endpoint.path, router, families);
    routes.set(endpoint.path, entry);
    const handle = handlerFor(endpoint, parts);
    entry.route[endpoint.method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete']((req: express.Request, res: express.Response) => {
      nameRoute(req, entry.template);
      return handle(req, res);
    });
    entry.methods.add(endpoint.method);
  }
  // Last in each route, so it sees only the methods no handler took.
  for (const { route, template, methods } of routes.values()) {
    const refuse = refuseOtherMethods(methods);
    route.all((req, res, next) => {
      nameRoute(req, template);
      return refuse(req, res, next);
    });
  }
  for (const [prefix, family] of families) router.use(prefix, family);
  return router;
}

/**
 * One Express route per path, holding all its methods, so a request is matched against each path
 * once. A path below a family prefix goes to that family's router; the prefix itself (a
 * version's own route) stays at the top, where strict routing still tells `/x` from `/x/`.
 */
function mount(template: string, router: express.Router, families: ReadonlyMap<string, express.Router>): MountedRoute {
  const below = [...families].find(([prefix]) => template.startsWith(`${prefix}/`));
  const route = below ? below[1].route(template.slice(below[0].length)) : router.route(template);
  return { route, template, methods: new Set() };
}
