// The life of a request, in order: authenticate → address (route parameters) → resolve the
// version or project → authorize → admission (imports: their turn) → read and check the body → run the
// operation → send the outcome. Each stage either passes its result on or throws an ApiError;
// nothing here knows a collection.
// Every route of every room is data (routes/route.ts) this one pipeline runs. The stages from
// address to authorize are pipeline/stages.ts, which MCP tools take too (pipeline/tool-call.ts).
import type { Request, Response } from 'express';
import type { Authenticate } from '../auth/authenticate.ts';
import { Deadline, whileClientWaits } from './deadline.ts';
import { Forbidden, InternalError, InvalidRequest, ServiceUnavailable, TooManyRequests, Unauthorized } from '../errors.ts';
import { compileBodyCheck } from './body.ts';
import { compileQueryCheck } from './query.ts';
import { send } from '../http/respond.ts';
import type { BodyReader, Outcome, ProjectContext, ResolvedVersion, Route } from '../routes/route.ts';
import type { SchemaRegistry } from '../schemas/registry.ts';
import type { VersionResolver } from './resolve.ts';
import { checked, reachProject, reachVersion, versionAddress } from './stages.ts';

export interface PipelineParts {
  schemas: SchemaRegistry;
  authenticate: Authenticate;
  versions: VersionResolver;
  readBody: BodyReader;
  /** Reads API descriptions (imports): JSON or YAML, under IMPORT_BODY_LIMIT. */
  readDocument: BodyReader;
  /** DB_TIMEOUT_MS: the database work of one request (credential, version, operation) gets this long in all. */
  dbTimeoutMs: number;
}

/**
 * What the pipeline's stages answer on every route, whatever it runs: a malformed route or
 * unknown query parameter, no credential, the rate limit (it wraps authentication), a version or
 * project out of reach, the database budget, anything unforeseen. A route's `doc.errors`
 * lists only what its own work adds.
 */
export const PIPELINE_OUTCOMES: readonly number[] = [InvalidRequest, Unauthorized, TooManyRequests, Forbidden, ServiceUnavailable, InternalError]
  .map((errorClass) => errorClass.documented.example().status);

export function handlerFor(route: Route, parts: PipelineParts): (req: Request, res: Response) => Promise<void> {
  const { schemas, versions } = parts;
  const checkQuery = compileQueryCheck(schemas.coercingAjv, route.doc.query ?? []);
  const checkBody = route.body === 'json' ? compileBodyCheck(schemas.ajv, route.path, route.doc.body) : (body: unknown) => body;
  return async (req, res) => {
    // One budget for the request's database work; reading the body does not count against it.
    const deadline = new Deadline(parts.dbTimeoutMs);
    const credential = await deadline.bound(() => parts.authenticate(req, res));
    // Everything the request names is checked before anything is looked up: a 400 comes before a 403.
    const address = route.target === 'project' ? undefined : versionAddress(schemas, route.target, (part) => req.params[part] as string);
    const projectRef = route.target === 'project' ? checked(schemas.checkProjectRef, req.params['projectRef'] as string, 'projectRef') : '';
    const id = route.checkId ? checked(route.checkId, req.params['id'] as string, 'id') : '';
    const query = checkQuery(req.query);
    const reach = { credential, access: route.access, versions, deadline };
    const version = address && await reachVersion(address, reach);
    const projectId = version ? version.projectId : await reachProject(projectRef, reach);
    const leave = route.admission && await route.admission(req, res);
    let outcome: Outcome;
    try {
      const body = checkBody(await readBodyOf(route, parts, req, res));
      const context: ProjectContext = {
        credential, projectId, id, body, query,
        forgetVersion: (versionId) => versions.forget(versionId),
        reachForRead: (other) => reachVersion(other, { ...reach, access: 'read' }),
        accepts: (types) => req.accepts([...types]),
      };
      const work = workOf(route, context, version);
      // Long-running work runs outside the request's budget: its calls get DB_LONG_TIMEOUT_MS each,
      // and end when the client goes.
      outcome = await (route.longRunning ? whileClientWaits(res, work) : deadline.bound(work, 'restart'));
    } finally {
      leave?.();
    }
    send(res, outcome.status === 201 ? withLocation(outcome, req, route.checkId !== undefined) : outcome);
  };
}

function readBodyOf(route: Route, parts: PipelineParts, req: Request, res: Response): Promise<unknown> {
  if (route.body === 'json' || route.body === 'record') return parts.readBody(req, res);
  if (route.body === 'document') return parts.readDocument(req, res);
  return route.body ? route.body(req, res) : Promise.resolve(undefined);
}

/** The route's work with its context: a version route's always has the version. */
function workOf(route: Route, context: ProjectContext, version: ResolvedVersion | undefined): () => Promise<Outcome> {
  if (route.target === 'project') return () => route.run(context);
  if (!version) throw new Error(`${route.path}: a version route reached no version`);
  return () => route.run({ ...context, version });
}

/** A 201 names what it created: the record's URL, in the family (and spelling) it was addressed by. */
function withLocation(outcome: Outcome, req: Request, isItemRoute: boolean): Outcome {
  const id = (outcome.body as { id?: unknown } | undefined)?.id;
  if (typeof id !== 'string' || outcome.headers?.['Location'] !== undefined) return outcome;
  const path = req.originalUrl.split('?')[0]!;
  const location = isItemRoute ? path : `${path}/${encodeURIComponent(id)}`;
  return { ...outcome, headers: { ...outcome.headers, Location: location } };
}
