// The routes of API descriptions, on both families, described as data like the record routes
// and run through the same stages: authenticate → resolve → authorize → body → run → outcome.
//   POST {prefix}/imports/openapi       import (sync) an OpenAPI document into a service (write)
//   GET  {prefix}/services/{id}/openapi export a service as OpenAPI 3.1 (read)
import express from 'express';
import type { Request, RequestHandler } from 'express';
import { stringify as toYaml } from 'yaml';
import type { Access } from '../auth/credential.ts';
import { authorize } from '../auth/credential.ts';
import { Forbidden, InvalidRequest, RecordNotFound } from '../errors.ts';
import type { BodyReader } from '../http/body.ts';
import { send, type Outcome } from '../http/respond.ts';
import { addressOf, param, type PipelineParts } from '../pipeline.ts';
import { FAMILIES } from '../routes/table.ts';
import type { ResolvedVersion } from '../versions/resolve.ts';
import { prepareDocument } from './document.ts';
import { exportService } from './export.ts';
import { importDocument } from './sync.ts';

interface DescriptionContext {
  parts: PipelineParts;
  version: ResolvedVersion;
  req: Request;
  body: unknown;
}

interface DescriptionRoute {
  name: 'import' | 'export';
  method: 'post' | 'get';
  /** Under the family prefix. */
  path: string;
  access: Access;
  /** Query parameters the route takes; any other is 400. */
  query: readonly string[];
  body: boolean;
  success: readonly number[];
  run(context: DescriptionContext): Promise<Outcome>;
}

export const DESCRIPTION_ROUTES: readonly DescriptionRoute[] = [
  {
    name: 'import', method: 'post', path: '/imports/openapi', access: 'write', query: ['service', 'dryRun'], body: true, success: [200, 201],
    async run({ parts, version, req, body }) {
      const service = queryValue(req, 'service');
      const dryRun = queryValue(req, 'dryRun');
      if (dryRun !== undefined && dryRun !== 'true' && dryRun !== 'false') throw InvalidRequest.field('dryRun', 'must be true or false');
      const document = await prepareDocument(body);
      const report = await importDocument(
        { stores: parts.stores, versionId: version.versionId, projectId: version.projectId },
        document,
        { ...(service === undefined ? {} : { service }), dryRun: dryRun === 'true' },
      );
      return { status: report.created ? 201 : 200, body: report.body };
    },
  },
  {
    name: 'export', method: 'get', path: '/services/:id/openapi', access: 'read', query: [], body: false, success: [200],
    async run({ parts, version, req }) {
      const services = parts.stores.get('services')!;
      const id = param(req, 'id', services.collection.checkId);
      const service = await services.get(version.versionId, id);
      if (!service) throw new RecordNotFound(services.collection.notFound);
      const document = await exportService(parts.stores, version.versionId, service);
      if (req.accepts(['application/json', 'application/yaml']) === 'application/yaml') {
        return { status: 200, body: toYaml(document, { aliasDuplicateObjects: false }), headers: { 'Content-Type': 'application/yaml; charset=utf-8' } };
      }
      return { status: 200, body: document };
    },
  },
];

export function descriptionsRouter(parts: PipelineParts, readDocument: BodyReader): express.Router {
  const router = express.Router();
  for (const family of FAMILIES) {
    for (const route of DESCRIPTION_ROUTES) router[route.method](`${family.prefix}${route.path}`, handlerFor(route, family, parts, readDocument));
  }
  return router;
}

function handlerFor(route: DescriptionRoute, family: (typeof FAMILIES)[number], parts: PipelineParts, readDocument: BodyReader): RequestHandler {
  return async (req, res) => {
    const credential = await parts.authenticate(req, res);
    const address = addressOf({ family }, req, parts.catalog);
    for (const name of Object.keys(req.query)) {
      if (!route.query.includes(name)) throw InvalidRequest.field(name, 'is not a query parameter of this operation');
    }
    const version = await parts.versions.resolve(address);
    if (!version) throw new Forbidden();
    authorize(credential, version.projectId, route.access);
    const body = route.body ? await readDocument(req, res) : undefined;
    send(res, await route.run({ parts, version, req, body }));
  };
}

function queryValue(req: Request, name: string): string | undefined {
  const value = req.query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw InvalidRequest.field(name, 'must be given once');
  return value;
}
