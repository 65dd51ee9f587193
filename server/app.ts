// Builds the Express app from its parts. Order matters: request ids and security headers on
// everything, health without credentials, then the catalog routes, then 404 and errors.
import express from 'express';
import helmet from 'helmet';
import type { Logger } from 'pino';
import { bearerAuthentication } from './auth/authenticate.ts';
import type { Config } from './config.ts';
import { jsonBodyReader } from './http/body.ts';
import { renderError, routeNotFound } from './http/errors.ts';
import { health } from './http/health.ts';
import { requestLog } from './http/request-log.ts';
import { descriptionsRouter } from './descriptions/routes.ts';
import { documentBodyReader } from './http/document-body.ts';
import { catalogRouter } from './routes/router.ts';
import { routeTable } from './routes/table.ts';
import type { Catalog } from './schemas/registry.ts';
import type { Database } from './store/database.ts';
import type { RecordStore } from './store/records.ts';
import type { Tenancy } from './tenancy/tenancy.ts';
import { VersionResolver } from './versions/resolve.ts';

export interface AppParts {
  config: Config & { jwtSecret: string };
  logger: Logger;
  database: Pick<Database, 'ping'>;
  catalog: Catalog;
  tenancy: Tenancy;
  stores: ReadonlyMap<string, RecordStore>;
}

export function createApp(parts: AppParts): express.Express {
  const app = express();
  app.disable('x-powered-by');
  // Records carry updatedAt; hashing every body for a weak ETag would only cost time.
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.use(requestLog(parts.logger));
  app.use(helmet());
  app.get('/healthz', health((timeoutMs) => parts.database.ping(timeoutMs)));
  const pipeline = {
    catalog: parts.catalog,
    authenticate: bearerAuthentication(parts.tenancy, parts.config.jwtSecret),
    versions: new VersionResolver(parts.tenancy, parts.config.versionCacheMs),
    readBody: jsonBodyReader(parts.config.bodyLimit),
    stores: parts.stores,
  };
  app.use(descriptionsRouter(pipeline, documentBodyReader(parts.config.importBodyLimit)));
  app.use(catalogRouter(routeTable(parts.catalog.collections), pipeline));
  app.use(routeNotFound);
  app.use(renderError);
  return app;
}
