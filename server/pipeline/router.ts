// Mounts the rooms' routes on an Express router, each run by the pipeline (pipeline/handler.ts), and
// answers 405 with `Allow` for the other methods on a known path (http/allowed-methods.ts). The
// only place catalog routes meet Express.
import express from 'express';
import { refuseOtherMethods } from '../http/allowed-methods.ts';
import { nameRoute } from '../http/request-log.ts';
import { FAMILIES, type Route } from '../routes/route.ts';
import { handlerFor, type PipelineParts } from './handler.ts';

const OPTIONS = { strict: true, caseSensitive: true } as const;

interface MountedRoute {
  route: express.IRoute;
  /** The whole template, for logs and metrics. */
  template: string;
  methods: Set<string>;
}

export function catalogRouter(catalogRoutes: readonly Route[], parts: PipelineParts): express.Router {
  const router = express.Router(OPTIONS);
  // The routes below a family's prefix live in a router of their own, mounted at the prefix: a
  // request is matched against the two prefixes, then against its family's routes only, rather
  // than a family P request trying every family V route first. (Measured back to back, P cost
  // what V cost either way: docs/benchmark.md.)
  const families = new Map(FAMILIES.map(({ prefix }) => [prefix, express.Router({ ...OPTIONS, mergeParams: true })]));
  const mounted = new Map<string, MountedRoute>();
  for (const route of catalogRoutes) {
    const entry = mounted.get(route.path) ?? mount(route.path, router, families);
    mounted.set(route.path, entry);
    const handle = handlerFor(route, parts);
    entry.route[route.method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete']((req: express.Request, res: express.Response) => {
      nameRoute(req, entry.template);
      return handle(req, res);
    });
    entry.methods.add(route.method);
  }
  // Last in each route, so it sees only the methods no handler took.
  for (const { route, template, methods } of mounted.values()) {
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
