// The life of a request, in order: authenticate → address (route parameters) → resolve the
// version → authorize → read the body → run the operation → send the outcome. Each stage
// either passes its result on or throws an ApiError; nothing here knows a collection.
import type { Request, RequestHandler } from 'express';
import type { Authenticate } from './auth/authenticate.ts';
import { authorize } from './auth/credential.ts';
import { Forbidden, InvalidRequest } from './errors.ts';
import type { BodyReader } from './http/body.ts';
import { send } from './http/respond.ts';
import type { Route } from './routes/table.ts';
import type { Catalog, Check } from './schemas/registry.ts';
import type { RecordStore } from './store/records.ts';
import type { VersionType } from './tenancy/tenancy.ts';
import type { VersionAddress, VersionResolver } from './versions/resolve.ts';

export interface PipelineParts {
  catalog: Catalog;
  authenticate: Authenticate;
  versions: VersionResolver;
  readBody: BodyReader;
  /** By collection name. */
  stores: ReadonlyMap<string, RecordStore>;
}

export function handlerFor(route: Route, parts: PipelineParts): RequestHandler {
  const store = parts.stores.get(route.collection.name)!;
  const { operation } = route;
  return async (req, res) => {
    const credential = await parts.authenticate(req, res);
    const address = addressOf(route, req, parts.catalog);
    const id = operation.item ? param(req, 'id', route.collection.checkId) : '';
    if (operation.name !== 'list') refuseQuery(req);
    const version = await parts.versions.resolve(address);
    // An unknown version gets the answer an out-of-reach one gets from authorize: nothing leaks.
    if (!version) throw new Forbidden();
    authorize(credential, version.projectId, operation.access);
    const body = operation.body ? await parts.readBody(req, res) : undefined;
    send(res, await operation.run({ store, version, id, body, query: req.query as Record<string, unknown> }));
  };
}

/** The version a route addresses, from its family's route parameters (checked). */
export function addressOf(route: Pick<Route, 'family'>, req: Request, catalog: Catalog): VersionAddress {
  if (route.family.name === 'V') return { family: 'V', versionId: param(req, 'versionId', catalog.checkVersionId) };
  return {
    family: 'P',
    projectRef: param(req, 'projectRef', catalog.checkProjectRef),
    versionType: param(req, 'versionType', catalog.checkVersionType) as VersionType,
    versionSlug: param(req, 'versionSlug', catalog.checkVersionSlug),
  };
}

/** A route parameter that passed its schema; 400 naming the parameter otherwise. */
export function param(req: Request, name: string, check: Check): string {
  const value = req.params[name] as string;
  const problem = check(value)[0];
  if (problem) throw InvalidRequest.field(name, problem.message);
  return value;
}

/** Only the list operation takes query parameters; elsewhere any is a mistake worth reporting. */
function refuseQuery(req: Request): void {
  const [name] = Object.keys(req.query);
  if (name !== undefined) throw InvalidRequest.field(name, 'is not a query parameter of this operation');
}
