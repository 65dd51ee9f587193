// The life of a request, in order: authenticate → address (route parameters) → resolve the
// version or project → authorize → read the body → run the operation → send the outcome. Each
// stage either passes its result on or throws an ApiError; nothing here knows a collection.
// Record routes and version routes are both endpoints: data this one pipeline runs.
import type { Request, RequestHandler } from 'express';
import type { Authenticate } from './auth/authenticate.ts';
import { authorize, type Access, type Credential } from './auth/credential.ts';
import { Forbidden, InvalidRequest } from './errors.ts';
import type { BodyReader } from './http/body.ts';
import { send, type Outcome } from './http/respond.ts';
import type { Method, Route } from './routes/table.ts';
import type { Catalog, Check } from './schemas/registry.ts';
import type { RecordStore } from './store/records.ts';
import type { VersionType } from './tenancy/tenancy.ts';
import type { ResolvedVersion, VersionAddress, VersionResolver } from './versions/resolve.ts';

export interface PipelineParts {
  catalog: Catalog;
  authenticate: Authenticate;
  versions: VersionResolver;
  readBody: BodyReader;
  /** By collection name. */
  stores: ReadonlyMap<string, RecordStore>;
}

/** What a route acts on: a version by id (family V) or by project, type and slug (P), or a project. */
export type Target = 'V' | 'P' | 'project';

/** What the stages before `run` found. */
export interface EndpointContext {
  credential: Credential;
  /** The project the route acts in (authorized for the endpoint's access). */
  projectId: string;
  /** The version, for version targets. */
  version: ResolvedVersion | undefined;
  /** The item id of item routes, already checked. */
  id: string;
  body: unknown;
  /** Query parameters as Express parsed them (repeated parameters become arrays). */
  query: Readonly<Record<string, unknown>>;
  /** For operations that reach a second version (diff) or change versions (delete). */
  versions: VersionResolver;
}

/** A route as data: enough for the router, the pipeline and the OpenAPI generator. */
export interface Endpoint {
  method: Method;
  /** Express path. */
  path: string;
  target: Target;
  access: Access;
  /** Whether it reads a JSON body. */
  body: boolean;
  /** Whether it takes query parameters; any parameter is 400 otherwise. */
  query: boolean;
  /** The `:id` parameter's check, for item routes. */
  checkId?: Check;
  /** Success statuses, for documentation. */
  success: readonly number[];
  /** For documentation, where the endpoint knows them: a one-line summary, and `$id`s of its body and answer schemas. */
  summary?: string;
  bodySchema?: string;
  responseSchema?: string;
  run(context: EndpointContext): Promise<Outcome>;
}

/** A record route of the table as an endpoint: its operation run against its collection's store. */
export function recordEndpoint(route: Route, stores: ReadonlyMap<string, RecordStore>): Endpoint {
  const store = stores.get(route.collection.name)!;
  const { operation } = route;
  return {
    method: operation.method,
    path: route.path,
    target: route.family.name,
    access: operation.access,
    body: operation.body,
    query: operation.name === 'list',
    ...(operation.item && { checkId: route.collection.checkId }),
    success: operation.success,
    run: ({ version, id, body, query }) => operation.run({ store, version: version!, id, body, query }),
  };
}

export function handlerFor(endpoint: Endpoint, parts: PipelineParts): RequestHandler {
  return async (req, res) => {
    const credential = await parts.authenticate(req, res);
    const address = endpoint.target === 'project' ? undefined : addressOf(endpoint.target, req, parts.catalog);
    const projectRef = endpoint.target === 'project' ? param(req, 'projectRef', parts.catalog.checkProjectRef) : undefined;
    const id = endpoint.checkId ? param(req, 'id', endpoint.checkId) : '';
    if (!endpoint.query) refuseQuery(req);
    const version = address ? await parts.versions.resolve(address) : undefined;
    const projectId = version ? version.projectId : projectRef !== undefined ? await parts.versions.project(projectRef) : null;
    // Unknown gets the answer out-of-reach gets from authorize: nothing leaks.
    if (!projectId || version === null) throw new Forbidden();
    authorize(credential, projectId, endpoint.access);
    const body = endpoint.body ? await parts.readBody(req, res) : undefined;
    send(res, await endpoint.run({
      credential, projectId, version, id, body, query: req.query as Record<string, unknown>, versions: parts.versions,
    }));
  };
}

function addressOf(family: 'V' | 'P', req: Request, catalog: Catalog): VersionAddress {
  if (family === 'V') return { family: 'V', versionId: param(req, 'versionId', catalog.checkVersionId) };
  return {
    family: 'P',
    projectRef: param(req, 'projectRef', catalog.checkProjectRef),
    versionType: param(req, 'versionType', catalog.checkVersionType) as VersionType,
    versionSlug: param(req, 'versionSlug', catalog.checkVersionSlug),
  };
}

/** A route parameter that passed its schema; 400 naming the parameter otherwise. */
function param(req: Request, name: string, check: Check): string {
  const value = req.params[name] as string;
  const problem = check(value)[0];
  if (problem) throw InvalidRequest.field(name, problem.message);
  return value;
}

/** Only lists (and the diff) take query parameters; elsewhere any is a mistake worth reporting. */
function refuseQuery(req: Request): void {
  const [name] = Object.keys(req.query);
  if (name !== undefined) throw InvalidRequest.field(name, 'is not a query parameter of this operation');
}
