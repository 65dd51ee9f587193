// The life of a request, in order: authenticate → address (route parameters) → resolve the
// version → authorize → read the body → run the operation → send the outcome. Each stage
// either passes its result on or throws an ApiError; nothing here knows a collection.
import type { Request, RequestHandler } from 'express';
import type { Authenticate } from './auth/authenticate.ts';
import { authorize } from './auth/credential.ts';
import { Forbidden, InvalidRequest, ServiceUnavailable } from './errors.ts';
import type { BodyReader } from './http/body.ts';
import { send, type Outcome } from './http/respond.ts';
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
  /** DB_TIMEOUT_MS: the database work of one request (credential, version, operation) gets this long in all. */
  dbTimeoutMs: number;
}

export function handlerFor(route: Route, parts: PipelineParts): RequestHandler {
  const store = parts.stores.get(route.collection.name)!;
  const { operation } = route;
  return async (req, res) => {
    // One budget for the request's database work; reading the body does not count against it.
    const deadline = new Deadline(parts.dbTimeoutMs);
    const credential = await deadline.bound(parts.authenticate(req, res));
    const address = addressOf(route, req, parts.catalog);
    const id = operation.item ? param(req, 'id', route.collection.checkId) : '';
    if (operation.name !== 'list') refuseQuery(req);
    const cached = parts.versions.isCached(address);
    const version = await deadline.bound(parts.versions.resolve(address));
    // An unknown version gets the answer an out-of-reach one gets from authorize: nothing leaks.
    if (!version) throw new Forbidden();
    try {
      authorize(credential, version.projectId, operation.access);
    } catch (refusal) {
      // Nor does the time: a version refused from the cache costs the lookups of an unknown one.
      if (cached) await deadline.bound(parts.versions.lookUpAsIfUncached(address));
      throw refusal;
    }
    const body = operation.body ? await parts.readBody(req, res) : undefined;
    const outcome = await deadline.bound(operation.run({ store, version, id, body, query: req.query as Record<string, unknown> }), 'restart');
    send(res, outcome.status === 201 ? withLocation(outcome, req, operation.item) : outcome);
  };
}

/** A 201 names what it created: the record's URL, in the family (and spelling) it was addressed by. */
function withLocation(outcome: Outcome, req: Request, isItemRoute: boolean): Outcome {
  const id = (outcome.body as { id?: unknown } | undefined)?.id;
  if (typeof id !== 'string') return outcome;
  const path = req.originalUrl.split('?')[0]!;
  const location = isItemRoute ? path : `${path}/${encodeURIComponent(id)}`;
  return { ...outcome, headers: { ...outcome.headers, Location: location } };
}

/**
 * The answer is bounded even where the driver is not: past the budget the request is answered
 * 503 (the database call itself may still finish, as after any lost connection).
 */
class Deadline {
  #ends: number;
  readonly #budgetMs: number;

  constructor(budgetMs: number) {
    this.#budgetMs = budgetMs;
    this.#ends = Date.now() + budgetMs;
  }

  /** `restart`: the body was read in between, so the operation gets the whole budget afresh. */
  async bound<T>(work: Promise<T>, restart?: 'restart'): Promise<T> {
    if (restart) this.#ends = Math.max(this.#ends, Date.now() + this.#budgetMs);
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ServiceUnavailable()), Math.max(0, this.#ends - Date.now()));
    });
    try {
      return await Promise.race([work, expired]);
    } finally {
      clearTimeout(timer);
    }
  }
}

function addressOf(route: Route, req: Request, catalog: Catalog): VersionAddress {
  if (route.family.name === 'V') return { family: 'V', versionId: param(req, 'versionId', catalog.checkVersionId) };
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

/** Only the list operation takes query parameters; elsewhere any is a mistake worth reporting. */
function refuseQuery(req: Request): void {
  const [name] = Object.keys(req.query);
  if (name !== undefined) throw InvalidRequest.field(name, 'is not a query parameter of this operation');
}
