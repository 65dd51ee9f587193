// The vocabulary of this server's own surface, low in the house: what a route is (method, path,
// target, access, body, documentation, run), what its work receives, what it answers, and the two
// families of version addresses. Rooms declare routes in these words; the pipeline runs them;
// the document generator reads them. Nothing here imports a room, the pipeline or Express's app.
import type { Request, Response } from 'express';
import type { Access, Credential } from '../auth/credential.ts';
import type { Check } from '../schemas/registry.ts';
import { SCHEMA_BASE } from '../schemas/registry.ts';
import type { VersionType } from '../tenancy/versions.ts';
import type { RouteDoc } from './documentation.ts';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** What a route answers: a status, and a JSON body unless the status has none (204). */
export interface Outcome {
  status: number;
  body?: unknown;
  headers?: Readonly<Record<string, string>>;
}

/** Reads a request's body (JSON, an API description, a traffic report) into a value, or throws the ApiError that refuses it. */
export type BodyReader = (req: Request, res: Response) => Promise<unknown>;

/** Waits for a route's turn before its body is read, or throws the ApiError that refuses it; the answer is called once its work has settled. */
export type Admission = (req: Request, res: Response) => Promise<() => void>;

/** A version, once its address resolved. */
export interface ResolvedVersion {
  versionId: string;
  projectId: string;
}

/** A version named by id (family V) or by project (id or slug), type and slug (family P). */
export type VersionAddress =
  | { family: 'V'; versionId: string }
  | { family: 'P'; projectRef: string; versionType: VersionType; versionSlug: string };

/** The two ways a route names its version, each a prefix of the routes below it. */
export interface Family {
  name: 'V' | 'P';
  /** Express path of the family's prefix. */
  prefix: string;
  /** The schema of each parameter of the prefix (`$id`s of schemas/), for the document. */
  params: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** Ends the operationIds of the family's routes: `getPath`, `getPathByProject`. */
  operationIdSuffix: string;
}

const IDS = `${SCHEMA_BASE}defs/ids.json#/$defs/`;

export const FAMILIES: readonly Family[] = [
  { name: 'V', prefix: '/v2/catalog/versions/:versionId', params: { versionId: { $ref: `${IDS}versionId` } }, operationIdSuffix: '' },
  {
    name: 'P',
    prefix: '/v2/catalog/projects/:projectRef/:versionType/:versionSlug',
    params: { projectRef: { $ref: `${IDS}projectRef` }, versionType: { $ref: `${IDS}versionType` }, versionSlug: { $ref: `${IDS}versionSlug` } },
    operationIdSuffix: 'ByProject',
  },
];

/** What a route acts on: a version by id (family V) or by project, type and slug (P), or a project. */
export type Target = 'V' | 'P' | 'project';

/** Query values as the route's documented schemas checked and typed them (numbers, booleans, strings). */
export type QueryValues = Readonly<Record<string, unknown>>;

/** What the stages before `run` found, on every route. */
interface ContextBase<Query extends QueryValues, Body> {
  credential: Credential;
  /** The project the route acts in (authorized for the route's access). */
  projectId: string;
  /** The item id of item routes, already checked. */
  id: string;
  /** The body: on a `json` route, as its documented schema checked it (defaults filled in). */
  body: Body;
  /** The query, checked and typed by the route's `doc.query` schemas; any parameter they do not name is 400. */
  query: Query;
  /** Forgets a version this process cached (it was deleted). */
  forgetVersion(versionId: string): void;
  /** A second version the work reaches (diff, changes): resolved and authorized for read as the route's own, within the request's budget. */
  reachForRead(address: VersionAddress): Promise<ResolvedVersion>;
  /** Content negotiation on `Accept` (Express's req.accepts): the best of `types`, or false. */
  accepts(types: readonly string[]): string | false;
}

/** The context of a route that names a version: the version exists and the credential reaches it. */
export interface VersionContext<Query extends QueryValues = QueryValues, Body = unknown> extends ContextBase<Query, Body> {
  version: ResolvedVersion;
}

/** The context of a route that names a project only. */
export type ProjectContext<Query extends QueryValues = QueryValues, Body = unknown> = ContextBase<Query, Body>;

interface RouteBase {
  method: Method;
  /** Express path. */
  path: string;
  access: Access;
  /**
   * What body it reads: JSON the pipeline checks by `doc.body.schema` (`json`); a record, which
   * the work checks whole by its record schema once the route has placed it in its version, so
   * that a patch is checked as the record it makes (`record`); an API description (JSON or YAML,
   * under IMPORT_BODY_LIMIT); or a body of its own kind, which its reader checks.
   */
  body: false | 'json' | 'record' | 'document' | BodyReader;
  /** The `:id` parameter's check, for item routes. */
  checkId?: Check;
  /** Work the process takes only so much of at once (imports): admitted after authorization, before the body. */
  admission?: Admission;
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
}

/** A route of a version (either family): its work always has the version. */
export interface VersionRoute<Query extends QueryValues = QueryValues> extends RouteBase {
  target: 'V' | 'P';
  run(context: VersionContext<Query>): Promise<Outcome>;
}

/** A route of a project. */
export interface ProjectRoute<Query extends QueryValues = QueryValues> extends RouteBase {
  target: 'project';
  run(context: ProjectContext<Query>): Promise<Outcome>;
}

/** A route as data: enough for the router, the pipeline and the OpenAPI generator. */
export type Route = VersionRoute | ProjectRoute;
