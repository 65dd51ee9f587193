// The pages room: server-rendered pages for people (and their Markdown twins for agents), the
// sign-in that opens them, /.well-known/api-catalog, and their assets. What it adds is what it
// exports: one router that the app mounts in one line, and the list of its routes.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Request, type RequestHandler, type Response } from 'express';
import type { Db } from 'mongodb';
import type { Authenticate, VerifyBearer } from '../auth/authenticate.ts';
import { ApiError, Unauthorized } from '../errors.ts';
import { refuseOtherMethods } from '../http/allowed-methods.ts';
import type { RateLimiter } from '../http/rate-limit.ts';
import { nameRoute } from '../http/request-log.ts';
import type { Room } from '../routes/room.ts';
import { PageCatalog, type CatalogParts } from './catalog.ts';
import { PAGES_DOCUMENTED_ROUTES, PAGES_TAG } from './documented.ts';
import { discoveryRoute, WELL_KNOWN_API_CATALOG } from './discovery.ts';
import { homePage } from './home.ts';
import { operationPage } from './operation.ts';
import { sendPage, wantsMarkdown, type Page } from './render.ts';
import { changesPage, exportedDocument, referencePage, servicePage } from './service.ts';
import { PageSessions } from './sessions.ts';
import { HOME_PATH, signInFor, signInRouter } from './sign-in.ts';
import { PAGE_ROUTES } from './urls.ts';
import { searchPage, versionPage } from './version.ts';
import { Visitors, type Visitor } from './visitors.ts';
import type { PageWork } from './work.ts';

export const ASSETS_PATH = '/assets/pages';
const ASSETS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'assets');

export interface PagesParts extends CatalogParts {
  db: Db;
  verify: VerifyBearer;
  /** The interface's bearer authentication, rate limited as it is. */
  authenticate: Authenticate;
  /** The app's rate limit count: page sessions and sign-in attempts count there too. */
  limiter: RateLimiter;
  jwtSecret: string;
  sessionMs: number;
}

/** The room as the service lists it (server/rooms.ts): its tag, its documented routes and its router. */
export function pagesRoom(parts: PagesParts): Room {
  return { tags: [PAGES_TAG], own: { documented: PAGES_DOCUMENTED_ROUTES, router: () => pagesRouter(parts) } };
}

function pagesRouter(parts: PagesParts): express.Router {
  const router = express.Router({ strict: true, caseSensitive: true });
  const sessions = new PageSessions(parts.db, parts.sessionMs);
  const visitors = new Visitors({ sessions, verify: parts.verify, authenticate: parts.authenticate, limiter: parts.limiter });
  const catalog = new PageCatalog(parts);

  router.use(ASSETS_PATH, express.static(ASSETS, { index: false, redirect: false, maxAge: '1h' }));
  // A browser asking for the root gets the catalog's pages; programs get what they always got.
  // (Middleware, not a route: `/` is no operation of the interface, and programs still get its 404.)
  router.use((req, res, next) => (req.method === 'GET' && req.path === '/' && req.accepts(['application/json', 'text/html']) === 'text/html' ? res.redirect(303, HOME_PATH) : next()));
  router.use(signInRouter({ sessions, visitors, verify: parts.verify, limiter: parts.limiter, jwtSecret: parts.jwtSecret, sessionMs: parts.sessionMs }));
  router.get(WELL_KNOWN_API_CATALOG, discoveryRoute(visitors, catalog));

  const page = (template: string, work: PageWork): RequestHandler => async (req, res) => {
    nameRoute(req, template);
    const visitor = await visitors.of(req, res);
    if (!visitor) return signedOut(req, res);
    const frame = { formToken: visitor.session?.formToken };
    let shown: Page;
    try {
      shown = await work(req, visitor, catalog);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500) throw error;
      return sendPage(req, res, errorPage(error), frame, error.status);
    }
    sendPage(req, res, shown, frame);
  };
  const pages: Array<[string, PageWork]> = [
    [PAGE_ROUTES.home, homePage], [PAGE_ROUTES.version, versionPage], [PAGE_ROUTES.search, searchPage],
    [PAGE_ROUTES.service, servicePage], [PAGE_ROUTES.operation, operationPage], [PAGE_ROUTES.changes, changesPage],
    [PAGE_ROUTES.reference, referencePage],
  ];
  for (const [template, work] of pages) router.route(template).get(page(template, work)).all(refuseOtherMethods(['GET']));
  router.route(PAGE_ROUTES.exportApi).get(async (req, res) => {
    nameRoute(req, PAGE_ROUTES.exportApi);
    const visitor = await visitors.of(req, res);
    if (!visitor) return signedOut(req, res);
    await exportedDocument(req, res, visitor, catalog);
  }).all(refuseOtherMethods(['GET']));
  return router;
}

/** Signed out: a browser goes to sign-in (and comes back after); an agent gets 401. */
function signedOut(req: Request, res: Response): void {
  if (wantsMarkdown(req)) return sendPage(req, res, errorPage(new Unauthorized()), { formToken: undefined }, 401);
  res.redirect(303, signInFor(req.originalUrl));
}

const TITLES: Readonly<Record<number, string>> = { 400: 'Not a valid address', 401: 'Sign in first', 403: 'Not reachable', 404: 'Not found' };

function errorPage(error: ApiError): Page {
  const message = error.status === 403
    ? 'This does not exist, or your credential does not reach it.'
    : `${error.body().error}${error.details === undefined ? '' : `: ${JSON.stringify(error.details)}`}`;
  return { template: 'error', title: TITLES[error.status] ?? 'Cannot show this page', data: { message } };
}
