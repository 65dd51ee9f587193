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
import { rateLimiter } from './http/rate-limit.ts';
import { requestLog } from './http/request-log.ts';
import { serviceDocument } from './openapi/inventory.ts';
import { selfDescriptionRouter } from './openapi/service-routes.ts';
import { documentBodyReader } from './http/document-body.ts';
import { descriptionDepth } from './descriptions/expansion.ts';
import { catalogRouter } from './pipeline/router.ts';
import { Metrics } from './http/prometheus.ts';
import type { Runtime } from './boot.ts';
import type { Database } from './database/database.ts';
import { VersionResolver } from './pipeline/resolve.ts';
import { mcpRouter } from './mcp/route.ts';
import { rooms, type RoomParts } from './rooms.ts';
import { ImportGate } from './descriptions/import-gate.ts';
import type { Room } from './routes/room.ts';

/** What the app is built from: the runtime's parts (boot.ts), a logger, and only what it calls of the database. */
export type AppParts = Omit<Runtime, 'close' | 'database' | 'databaseServer'> & {
  logger: Logger;
  database: Pick<Database, 'readable' | 'client' | 'db'>;
  /** The embedded server, for its restart count in the metrics (see RestartCounting). */
  databaseServer?: object;
};

/** `roomsOf`: the rooms to mount (server/rooms.ts; a test mounts fewer). */
export function createApp(parts: AppParts, roomsOf: (parts: RoomParts) => Room[] = rooms): express.Express {
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
  const verify = bearerVerifier(new ApiKeyLookup(parts.tenancy, parts.config.apiKeyCacheMs), parts.config.jwtSecret);
  const authenticate = bearerAuthentication(verify);
  // One count per credential and per address for every door: interface, MCP, pages and sign-in.
  const limiter = rateLimiter(parts.config.rateLimit);
  const limitedAuthenticate = limiter.guard(authenticate);
  const versions = new VersionResolver(parts.tenancy, parts.config.versionCacheMs);
  const readBody = jsonBodyReader(parts.config.bodyLimit, parts.config.recordLimits);
  const { config } = parts;
  const importGate = new ImportGate(config.importGate, config.importBodyLimit);
  // Read by tests and benchmarks: how many imports run and wait.
  app.locals['importGate'] = importGate;
  const roomList = roomsOf({
    ...parts, versions, verify, authenticate: limitedAuthenticate, db: parts.database.db, limiter,
    recordLimits: config.recordLimits, importBodyLimit: config.importBodyLimit, importGate, dbTimeoutMs: config.dbTimeoutMs, jwtSecret: config.jwtSecret, pageSessionMs: config.pageSessionMs,
    allowPrivateWebhooks: config.webhooks.allowPrivate, warn: (message, fields) => parts.logger.warn(fields ?? {}, message),
  });
  app.use(selfDescriptionRouter(serviceDocument(parts.schemas, roomList)));
  // Agents reach the catalog through MCP, every room's tools, with the same credentials and the same authorization.
  app.use(mcpRouter({
    schemas: parts.schemas, versions, tools: roomList.flatMap((room) => room.tools ?? []), authenticate: limitedAuthenticate, limiter, readBody, dbTimeoutMs: config.dbTimeoutMs,
  }));
  // Routes a room serves itself (the pages, reading the catalog through the same stages and views).
  for (const room of roomList) if (room.own) app.use(room.own.router());
  app.use(catalogRouter(roomList.flatMap((room) => room.routes ?? []), {
    schemas: parts.schemas,
    authenticate: limitedAuthenticate,
    versions,
    readBody,
    readDocument: documentBodyReader(config.importBodyLimit, descriptionDepth(config.recordLimits), { maxFiles: config.archiveMaxFiles }),
    dbTimeoutMs: config.dbTimeoutMs,
  }));
  app.use(routeNotFound);
  app.use(errorRenderer());
  return app;
}
