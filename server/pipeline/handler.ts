// The life of a request, in order: authenticate → address (route parameters) → resolve the
// version or project → authorize → read the body → run the operation → send the outcome. Each
// stage either passes its result on or throws an ApiError; nothing here knows a collection.
// Record routes and version routes are both endpoints: data this one pipeline runs. The stages
// from address to authorize are pipeline/stages.ts, which MCP tools take too.
import type { Request, Response } from 'express';
import type { Authenticate } from '../auth/authenticate.ts';
import type { Access, Credential } from '../auth/credential.ts';
import { Deadline, whileClientWaits } from './deadline.ts';
import { Forbidden, InternalError, InvalidRequest, ServiceUnavailable, TooManyRequests, Unauthorized } from '../errors.ts';
import type { BodyReader } from '../http/body.ts';
import { compileQueryCheck } from '../http/query.ts';
import { send, type Outcome } from '../http/respond.ts';
import type { RouteDoc } from '../routes/documentation.ts';
import { checked, reachProject, reachVersion, versionAddress } from './stages.ts';
import type { Method, Route } from '../records/table.ts';
import type { SchemaRegistry, Check } from '../schemas/registry.ts';
import type { RecordStore } from '../store/records.ts';
import type { ResolvedVersion, VersionAddress, VersionResolver } from './resolve.ts';

export interface PipelineParts {
  schemas: SchemaRegistry;
  authenticate: Authenticate;
  versions: VersionResolver;
  readBody: BodyReader;
  /** Reads API descriptions (imports): JSON or YAML, under IMPORT_BODY_LIMIT. */
  readDocument: BodyReader;
  /** By collection name. */
  stores: ReadonlyMap<string, RecordStore>;
  /** DB_TIMEOUT_MS: the database work of one request (credential, version, operation) gets this long in all. */
  dbTimeoutMs: number;
}

/**
 * What the pipeline's stages answer on every endpoint, whatever it runs: a malformed route or
 * unknown query parameter, no credential, the rate limit (it wraps authentication), a version or
 * project out of reach, the database budget, anything unforeseen. An endpoint's `doc.errors`
 * lists only what its own work adds.
 */
export const PIPELINE_OUTCOMES: readonly number[] = [InvalidRequest, Unauthorized, TooManyRequests, Forbidden, ServiceUnavailable, InternalError]
  .map((errorClass) => errorClass.documented.example().status);

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
  /** Query parameters as Express parsed them: each a string, unless the endpoint checks its own (repeated parameters become arrays). */
  query: Readonly<Record<string, unknown>>;
  /** For operations that change versions (delete). */
  versions: VersionResolver;
  /** A second version the operation reaches (diff, changes): resolved and authorized for read as the route's own, within the request's budget. */
  reachForRead(address: VersionAddress): Promise<ResolvedVersion>;
  /** Content negotiation on `Accept` (Express's req.accepts): the best of `types`, or false. */
  accepts(types: readonly string[]): string | false;
}

/** A route as data: enough for the router, the pipeline and the OpenAPI generator. */
export interface Endpoint {
  method: Method;
  /** Express path. */
  path: string;
  target: Target;
  access: Access;
  /** Whether it reads a JSON body, an API description (JSON or YAML, under IMPORT_BODY_LIMIT), or a body of its own kind. */
  body: false | 'json' | 'document' | BodyReader;
  /**
   * The operation checks the query string itself (lists: repeated `sort`, per-collection filters
   * and messages). Otherwise the parameters taken are those of `doc.query`, each given once; any
   * other is 400 naming it.
   */
  checksOwnQuery?: boolean;
  /** The `:id` parameter's check, for item routes. */
  checkId?: Check;
  /**
   * Work over a whole version (copy, purge, diff, import, integrity) takes longer than one
   * request's database budget, and on FerretDB single calls of it do too (reading a
   * 100,000-record version), so it is not cut off at the budget: finding the database and a
   * connection are still bounded, each call carries DB_LONG_TIMEOUT_MS as `maxTimeMS`, and a
   * frozen database holds it until it answers again.
   */
  longRunning?: boolean;
  /** What the OpenAPI document says of it (operationId, summary, parameters, body, answers, errors). */
  doc: RouteDoc;
  run(context: EndpointContext): Promise<Outcome>;
}

/** A record route of the table as an endpoint: its operation run against its collection's store. */
export function recordEndpoint(route: Route, stores: ReadonlyMap<string, RecordStore>, doc: RouteDoc): Endpoint {
  const store = stores.get(route.collection.name)!;
  const { operation } = route;
  return {
    method: operation.method,
    path: route.path,
    target: route.family.name,
    access: operation.access,
    body: operation.body ? 'json' : false,
    checksOwnQuery: operation.name === 'list',
    ...(operation.item && { checkId: route.collection.checkId }),
    doc,
    run: ({ version, id, body, query }) => operation.run({ store, version: version!, id, body, query }),
  };
}

export function handlerFor(endpoint: Endpoint, parts: PipelineParts): (req: Request, res: Response) => Promise<void> {
  const { schemas, versions } = parts;
  const { target, access } = endpoint;
  const checkQuery = endpoint.checksOwnQuery ? undefined : compileQueryCheck((endpoint.doc.query ?? []).map((parameter) => parameter.name));
  return async (req, res) => {
    // One budget for the request's database work; reading the body does not count against it.
    const deadline = new Deadline(parts.dbTimeoutMs);
    const credential = await deadline.bound(() => parts.authenticate(req, res));
    const address = target === 'project' ? undefined : versionAddress(schemas, target, (part) => req.params[part] as string);
    const projectRef = target === 'project' ? checked(schemas.checkProjectRef, req.params['projectRef'] as string, 'projectRef') : undefined;
    const id = endpoint.checkId ? checked(endpoint.checkId, req.params['id'] as string, 'id') : '';
    checkQuery?.(req.query as Record<string, unknown>);
    const reach = { credential, access, versions, deadline };
    const version = address ? await reachVersion(address, reach) : undefined;
    const projectId = version ? version.projectId : await reachProject(projectRef!, reach);
    const body = endpoint.body === 'json' ? await parts.readBody(req, res)
      : endpoint.body === 'document' ? await parts.readDocument(req, res)
      : endpoint.body ? await endpoint.body(req, res) : undefined;
    const work = () => endpoint.run({
      credential, projectId, version, id, body, query: req.query as Record<string, unknown>, versions,
      reachForRead: (other) => reachVersion(other, { ...reach, access: 'read' }),
      accepts: (types) => req.accepts([...types]),
    });
    // Long-running work runs outside the request's budget: its calls get DB_LONG_TIMEOUT_MS each,
    // and end when the client goes.
    const outcome = await (endpoint.longRunning ? whileClientWaits(res, work) : deadline.bound(work, 'restart'));
    send(res, outcome.status === 201 ? withLocation(outcome, req, endpoint.checkId !== undefined) : outcome);
  };
}

/** A 201 names what it created: the record's URL, in the family (and spelling) it was addressed by. */
function withLocation(outcome: Outcome, req: Request, isItemRoute: boolean): Outcome {
  const id = (outcome.body as { id?: unknown } | undefined)?.id;
  if (typeof id !== 'string' || outcome.headers?.['Location'] !== undefined) return outcome;
  const path = req.originalUrl.split('?')[0]!;
  const location = isItemRoute ? path : `${path}/${encodeURIComponent(id)}`;
  return { ...outcome, headers: { ...outcome.headers, Location: location } };
}
