// Builds the Express app from its parts. Order matters: request ids and security headers on
// everything, health and self-description without credentials, then the catalog routes, then 404 and errors.
import express from 'express';
import helmet from 'helmet';
import type { Logger } from 'pino';
import { ApiKeyLookup } from './auth/api-keys.ts';
import { bearerAuthentication, bearerVerifier } from './auth/authenticate.ts';
import { jsonBodyReader } from './http/body.ts';
import { errorRenderer, routeNotFound } from './http/errors.ts';
import { refuseOtherMethods } from './http/allowed-methods.ts';
import { HEALTH_PATH, health } from './http/health.ts';
import { METRICS_PATH } from './http/metrics.ts';
import { rateLimited } from './http/rate-limit.ts';
import { requestLog } from './http/request-log.ts';
import { serviceDocument } from './openapi/inventory.ts';
import { selfDescriptionRouter } from './openapi/service-routes.ts';
import { documentBodyReader } from './http/document-body.ts';
import { catalogRouter } from './pipeline/router.ts';
import { serviceEndpoints } from './routes/endpoints.ts';
import { Metrics } from './http/prometheus.ts';
import type { Runtime } from './boot.ts';
import type { Database } from './database/database.ts';
import { VersionResolver } from './pipeline/resolve.ts';
import { mcpRouter } from './mcp/route.ts';
import { pagesRoom } from './pages/room.ts';

/** What the app is built from: the runtime's parts (see boot.ts), a logger, and only what it calls of the database. */
export type AppParts = Pick<Runtime, 'config' | 'schemas' | 'tenancy' | 'stores' | 'versionRecords' | 'versionManager' | 'observations' | 'searchIndexes'> & {
  logger: Logger;
  database: Pick<Database, 'readable' | 'client' | 'db'>;
  /** The embedded server, for its restart count in the metrics (see RestartCounting). */
  databaseServer?: object;
};

export function createApp(parts: AppParts): express.Express {
  const app = express();
  app.disable('x-powered-by');
  // Records carry updatedAt; hashing every body for a weak ETag would only cost time.
  app.set('etag', false);
  app.set('query parser', 'simple');
  // `/Paths` and `/paths/` are not `/paths`: one spelling per resource (the router is strict too).
  app.set('strict routing', true);
  app.set('case sensitive routing', true);
  app.use(requestLog(parts.logger));
  const metrics = parts.config.metrics ? new Metrics() : undefined;
  if (metrics) {
    metrics.watchDatabase(parts.database.client);
    if (parts.databaseServer) metrics.watchDatabaseServer(parts.databaseServer);
    app.use(metrics.track);
    // index.ts serves them on METRICS_PORT instead when one is set.
    app.locals['metrics'] = metrics;
  }
  app.use(helmet());
  if (metrics && parts.config.metrics?.port === undefined) app.route(METRICS_PATH).get(metrics.expose).all(refuseOtherMethods(['GET']));
  app.route(HEALTH_PATH).get(health((timeoutMs) => parts.database.readable(timeoutMs), parts.config.dbTimeoutMs)).all(refuseOtherMethods(['GET']));
  const endpoints = serviceEndpoints({ ...parts, recordLimits: parts.config.recordLimits, importBodyLimit: parts.config.importBodyLimit });
  app.use(selfDescriptionRouter(serviceDocument(parts.schemas, endpoints)));
  const verify = bearerVerifier(new ApiKeyLookup(parts.tenancy, parts.config.apiKeyCacheMs), parts.config.jwtSecret);
  const authenticate = bearerAuthentication(verify);
  const limitedAuthenticate = parts.config.rateLimit ? rateLimited(authenticate, parts.config.rateLimit) : authenticate;
  const versions = new VersionResolver(parts.tenancy, parts.config.versionCacheMs);
  const readBody = jsonBodyReader(parts.config.bodyLimit, parts.config.recordLimits);
  // Agents reach the catalog through MCP with the same credentials and the same authorization.
  app.use(mcpRouter({
    schemas: parts.schemas, tenancy: parts.tenancy, versions, stores: parts.stores, observations: parts.observations, searchIndexes: parts.searchIndexes, authenticate: limitedAuthenticate, readBody,
    dbTimeoutMs: parts.config.dbTimeoutMs,
  }));
  // People browse the catalog through pages, reading it through the same stages and views.
  app.use(pagesRoom({ ...parts, versions, verify, authenticate: limitedAuthenticate, rateLimit: parts.config.rateLimit, db: parts.database.db, jwtSecret: parts.config.jwtSecret, sessionMs: parts.config.pageSessionMs, dbTimeoutMs: parts.config.dbTimeoutMs }).router);
  app.use(catalogRouter(endpoints, {
    schemas: parts.schemas,
    authenticate: limitedAuthenticate,
    versions,
    readBody,
    readDocument: documentBodyReader(parts.config.importBodyLimit),
    stores: parts.stores,
    dbTimeoutMs: parts.config.dbTimeoutMs,
  }));
  app.use(routeNotFound);
  app.use(errorRenderer());
  return app;
}
