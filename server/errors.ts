// Every error outcome of the interface: one class per row of the status table, one translation
// of foreign errors (body parser, driver) into them. The HTTP adapter renders them.
import {
  MongoError, MongoNetworkError, MongoNotConnectedError, MongoOperationTimeoutError, MongoServerError, MongoServerSelectionError,
  MongoTopologyClosedError,
} from 'mongodb';
import type { Error as ErrorBody } from './schemas/generated/types.ts';

/** One entry of `details` on a validation error: a JSON pointer into the body, or a query parameter name. */
export interface FieldProblem {
  field: string;
  message: string;
}

/** How the OpenAPI document names (`#/components/responses/<name>`), explains and shows a class's usual answer. */
export interface DocumentedOutcome {
  name: string;
  description: string;
  example(): ApiError;
}

export abstract class ApiError extends Error {
  abstract readonly status: number;
  /** The `error` string of the response body. */
  abstract readonly error: string;
  readonly details: unknown;
  readonly headers: Readonly<Record<string, string>> = {};

  constructor(details?: unknown) {
    super();
    this.details = details;
  }

  /** The error body: exactly `error` and, when there are any, `details`. */
  body(): ErrorBody {
    return this.details === undefined ? { error: this.error } : { error: this.error, details: this.details };
  }
}

export class InvalidRequest extends ApiError {
  static readonly documented: DocumentedOutcome = { name: 'InvalidRequest', example: () => InvalidRequest.field('/path', 'must match pattern "^/"'),
    description: 'Invalid request: bad JSON, a schema violation, a malformed id (route, body, cursor, filter), a list `cursor` its sort cannot resume from, a bad or unknown query parameter, a body nested too deep, or an API description beyond its bounds. `details` lists `{field, message}` (a JSON pointer into the body, or the parameter name).' };

  readonly status = 400;
  readonly error = 'Invalid request';
  constructor(details: FieldProblem[]) {
    super(details);
  }
  static field(field: string, message: string): InvalidRequest {
    return new InvalidRequest([{ field, message }]);
  }
}

/**
 * The problem of an id with another prefix than its kind's (schemas/defs/ids.json `x-id-prefix`):
 * it names the prefix wanted, and the one given when the value has an id's shape.
 */
export function idPrefixProblem(prefix: string, value: string): string {
  const given = /^([a-z]+(?:_[a-z]+)*_)[0-9A-Za-z]{26}$/.exec(value)?.[1];
  return given === undefined ? `is not a \`${prefix}\` id` : `is not a \`${prefix}\` id (its prefix is \`${given}\`)`;
}

/** What a service named by neither a slug nor a `svc_` id is told, in a query, a body or a tool's argument. */
export const SERVICE_REF_INVALID = 'must be a service slug or `svc_` id';

/**
 * Why an API description is refused before it costs what it would (400, `details` naming where):
 * the bounds of README's limits table, each derived from a record limit.
 */
export const DESCRIPTION_BOUNDS = {
  depth: (max: number) => `nests deeper than the ${max} levels a description may have (twice RECORD_MAX_DEPTH)`,
  members: (max: number) => `expands to more than the ${max} members a description may have once its references are resolved (20 times its members as sent, at least 4 and at most 60 × RECORD_MAX_KEYS)`,
  circular: 'holds a circular reference outside components.schemas',
} as const;

/** A key named `__proto__` that the upgrade of a Swagger 2.0 or OpenAPI 3.0 description would lose (the upgrader assigns it). */
export const LOST_BY_UPGRADE = 'is a key named __proto__, which the upgrade to OpenAPI 3.1 would lose: import the description as OpenAPI 3.1, or rename the key';

export class PayloadTooLarge extends ApiError {
  static readonly documented: DocumentedOutcome = { name: 'PayloadTooLarge', example: () => new PayloadTooLarge(),
    description: 'The body is larger than the configured limit (`BODY_LIMIT`).' };

  readonly status = 413;
  readonly error = 'Invalid request';
}

export class UnsupportedMediaType extends ApiError {
  static readonly documented: DocumentedOutcome = { name: 'UnsupportedMediaType', example: () => new UnsupportedMediaType([{ field: 'Content-Type', message: 'must be application/json' }]),
    description: 'The body is not JSON (`Content-Type` must be `application/json`, utf-8).' };

  readonly status = 415;
  readonly error = 'Invalid request';
}

export class Unauthorized extends ApiError {
  static readonly documented: DocumentedOutcome = { name: 'Unauthorized', example: () => new Unauthorized(),
    description: 'No, malformed, unknown, revoked, expired or badly signed credential.' };

  readonly status = 401;
  readonly error = 'Unauthorized';
  override readonly headers = { 'WWW-Authenticate': 'Bearer' };
  // No details, ever: the cause (unknown key, bad signature, expiry...) would help an attacker.
  constructor() {
    super();
  }
}

export class Forbidden extends ApiError {
  static readonly documented: DocumentedOutcome = { name: 'Forbidden', example: () => new Forbidden(),
    description: 'The credential may not reach this project or version (an unknown one gets the same answer; where the credential reads the project, `details` names the unknown version), or is read-only on a write (then `details` says so: `[{"field": "Authorization", "message": "the credential is read-only"}]`).' };

  readonly status = 403;
  readonly error = 'Forbidden';
  constructor() {
    super();
  }
}

/**
 * A write with a credential that reaches the project but may only read. The `error` stays the
 * status table's `Forbidden` (shared/design/decisions.md); `details` says why, so the caller knows
 * to use another credential. It tells nothing a read could not (the credential can read the
 * version), and an unknown or out-of-reach version still gets Forbidden with no details.
 */
export class ReadOnlyCredential extends ApiError {
  static readonly DETAILS = [{ field: 'Authorization', message: 'the credential is read-only' }] as const;
  readonly status = 403;
  readonly error = 'Forbidden';
  constructor() {
    super(ReadOnlyCredential.DETAILS);
  }
}

/** Who is told where the versions or projects it reaches are listed: an HTTP client or an MCP agent. */
export type Surface = 'http' | 'mcp';

/**
 * A version or project that does not exist, told to a credential that could list what does: the
 * version of a project it reaches, or either to one that reaches every project. The `error`
 * stays the status table's `Forbidden`, and `details` says only what a listing would show; any
 * other credential gets Forbidden with no details, whether the thing exists or not.
 */
export class UnknownAddress extends ApiError {
  readonly status = 403;
  readonly error = 'Forbidden';
  constructor(field: string, message: string) {
    super([{ field, message }]);
  }

  static version(field: string, type: string, slug: string, projectRef: string, surface: Surface): UnknownAddress {
    const listing = surface === 'mcp' ? `list_versions {project: ${JSON.stringify(projectRef)}}` : `GET /v2/catalog/projects/${encodeURIComponent(projectRef)}/versions`;
    return new UnknownAddress(field, `the ${type} ${JSON.stringify(slug)} is not in project ${JSON.stringify(projectRef)}; the project's versions are listed by ${listing}`);
  }

  static versionId(field: string, versionId: string): UnknownAddress {
    return new UnknownAddress(field, `there is no version ${versionId}`);
  }

  static project(field: string, projectRef: string, surface: Surface): UnknownAddress {
    return new UnknownAddress(field, `there is no project ${JSON.stringify(projectRef)}${surface === 'mcp' ? '; the projects are listed by list_projects {}' : ''}`);
  }
}

/** A record that does not exist in the addressed version; the text comes from the collection descriptor. */
export class RecordNotFound extends ApiError {
  readonly status = 404;
  readonly error: string;
  constructor(notFoundText: string) {
    super();
    this.error = notFoundText;
  }

  /**
   * The contract's text for a record kind (decisions.md, The whole catalog): `<Kind> not found`,
   * the kind in words with only its first capital kept (`SecurityScheme` → `Security scheme not
   * found`). The descriptors of schemas/collections.json spell it for the catalog's own kinds.
   */
  static textOf(record: string): string {
    return `${record.replace(/(?<=[a-z])([A-Z])/g, (upper) => ` ${upper.toLowerCase()}`)} not found`;
  }
}

export class RouteNotFound extends ApiError {
  static readonly documented: DocumentedOutcome = { name: 'NotFound', example: () => new RouteNotFound(),
    description: 'Nothing at this address.' };

  readonly status = 404;
  readonly error = 'Not found';
}

export class MethodNotAllowed extends ApiError {
  static readonly documented: DocumentedOutcome = { name: 'MethodNotAllowed', example: () => new MethodNotAllowed(['GET']),
    description: 'Known route, method not served; `Allow` lists the methods.' };

  readonly status = 405;
  readonly error = 'Method not allowed';
  override readonly headers: Readonly<Record<string, string>>;
  constructor(allowed: readonly string[]) {
    super();
    this.headers = { Allow: allowed.join(', ') };
  }
}

export class Conflict extends ApiError {
  static readonly documented: DocumentedOutcome = { name: 'Conflict', example: () => new Conflict(),
    description: 'The id or the natural key is already taken in this version, or an import naming no service would copy a description one of the version\'s services holds.' };

  readonly status = 409;
  readonly error = 'Conflict';

  /**
   * An import that names no service of a description one of the version's services already
   * holds (`why`: what they share): it would make a second copy beside it.
   */
  static describedAlready(field: string, slug: string, why: string): Conflict {
    return new Conflict([{
      field,
      message: `${why} service "${slug}" of this version: to re-import into it, add ?service=${slug}; to import beside it on purpose, add ?beside=true (or name a new service with ?service=)`,
    }]);
  }

  /** `failOn=lint-error` when the lint could not finish within its bound: the gate cannot tell, so it refuses. */
  static lintTimedOut(afterMs: number): Conflict {
    return new Conflict([{
      field: '/',
      message: `lint-timeout: the lint was stopped after ${afterMs} ms (LINT_TIMEOUT_MS), so whether the description leaves error findings is not known; nothing was written. Import without failOn=lint-error, or raise LINT_TIMEOUT_MS`,
    }]);
  }
}

export class HeadersTooLarge extends ApiError {
  readonly status = 431;
  readonly error = 'Invalid request';
}

/** Over the rate limit (server/http/rate-limit.ts); `Retry-After` in whole seconds. */
export class TooManyRequests extends ApiError {
  static readonly documented: DocumentedOutcome = { name: 'TooManyRequests', example: () => new TooManyRequests(60),
    description: 'Over the rate limit: `RATE_LIMIT_MAX` requests per credential (unauthenticated: per client address) per `RATE_LIMIT_WINDOW_MS`. Every operation that needs credentials is limited.' };

  readonly status = 429;
  readonly error = 'Too many requests';
  override readonly headers: Readonly<Record<string, string>>;
  constructor(retryAfterSeconds: number) {
    super();
    this.headers = { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) };
  }
}

export class ServiceUnavailable extends ApiError {
  static readonly documented: DocumentedOutcome = { name: 'ServiceUnavailable', example: () => new ServiceUnavailable(),
    description: 'The database does not answer.' };

  readonly status = 503;
  readonly error = 'Service Unavailable';
  // Every cause is passing (a busy, restarting or slow database): tell clients when to retry.
  override readonly headers = { 'Retry-After': String(RETRY_AFTER_SECONDS) };
  /** `reason`: for the log only (e.g. which call outlived the request's budget); never in the body. */
  constructor(reason?: string) {
    super();
    if (reason !== undefined) this.message = reason;
  }
}

const RETRY_AFTER_SECONDS = 1;

/**
 * An import refused by the import gate (descriptions/import-gate.ts): as many imports as the
 * service runs and queues at once are under way, or this one alone would take more memory than
 * all imports together may. The same row of the status table as ServiceUnavailable; `details`
 * says which, so a client knows whether retrying can help.
 */
export class ImportsBusy extends ApiError {
  readonly status = 503;
  readonly error = 'Service Unavailable';
  override readonly headers: Readonly<Record<string, string>>;
  private constructor(message: string, retryAfterSeconds: number) {
    super([{ field: 'imports', message }]);
    this.headers = { 'Retry-After': String(retryAfterSeconds) };
  }
  static queueFull(): ImportsBusy {
    return new ImportsBusy('as many imports as the service takes at once are running or waiting (IMPORT_CONCURRENCY and IMPORT_MEMORY_BUDGET running, IMPORT_QUEUE waiting); retry later', IMPORT_RETRY_AFTER_SECONDS);
  }
  static overBudget(): ImportsBusy {
    return new ImportsBusy('this description would take more memory than all imports together may (IMPORT_MEMORY_BUDGET); send a smaller one, or declare its Content-Length uncompressed', IMPORT_RETRY_AFTER_SECONDS);
  }
}

// An import of a large description takes seconds to tens of seconds: asking back sooner only queues again.
const IMPORT_RETRY_AFTER_SECONDS = 10;

export class InternalError extends ApiError {
  static readonly documented: DocumentedOutcome = { name: 'InternalServerError', example: () => new InternalError(),
    description: 'Something unexpected; the cause is logged, never shown.' };

  readonly status = 500;
  readonly error = 'Internal Server Error';
  constructor() {
    super();
  }
}

/** The status table of decisions.md, as classes; a test holds this, the docs and the classes together. */
export const ERROR_CLASSES = [
  InvalidRequest, PayloadTooLarge, HeadersTooLarge, UnsupportedMediaType, Unauthorized, Forbidden, ReadOnlyCredential, UnknownAddress, RecordNotFound,
  RouteNotFound, MethodNotAllowed, Conflict, TooManyRequests, ServiceUnavailable, ImportsBusy, InternalError,
] as const;

/** The usual answer of each status, by status: from the classes that document one. */
export const DOCUMENTED_OUTCOMES: ReadonlyMap<number, DocumentedOutcome> = new Map(ERROR_CLASSES
  .flatMap((errorClass) => ('documented' in errorClass ? [errorClass.documented] : []))
  .map((outcome) => [outcome.example().status, outcome]));

/** The error body parser (body-parser / raw-body) raises, by its `type`. */
const BODY_PARSER_ERRORS: Record<string, () => ApiError> = {
  'entity.too.large': () => new PayloadTooLarge(),
  'entity.parse.failed': () => InvalidRequest.field('body', 'is not valid JSON'),
  'encoding.unsupported': () => new UnsupportedMediaType([{ field: 'Content-Encoding', message: 'is not supported' }]),
  'charset.unsupported': () => new UnsupportedMediaType([{ field: 'Content-Type', message: 'charset must be utf-8' }]),
  'request.aborted': () => InvalidRequest.field('body', 'request was aborted'),
  'request.size.invalid': () => InvalidRequest.field('body', 'does not match Content-Length'),
};

/**
 * Any thrown value → the ApiError to answer with. `unexpected` is true when the cause is not
 * a foreseen outcome (so it must be logged with its stack, and never shown to the client).
 */
export function toApiError(thrown: unknown): { error: ApiError; unexpected: boolean } {
  if (thrown instanceof ApiError) return { error: thrown, unexpected: false };
  const type = (thrown as { type?: unknown } | null)?.type;
  const bodyError = typeof type === 'string' ? BODY_PARSER_ERRORS[type] : undefined;
  if (bodyError) return { error: bodyError(), unexpected: false };
  // Express itself raises 400 for a path that is not valid percent-encoding.
  if (thrown instanceof URIError || (thrown as { status?: unknown } | null)?.status === 400) {
    return { error: InvalidRequest.field('path', 'is not valid percent-encoded UTF-8'), unexpected: false };
  }
  if (isDatabaseUnreachable(thrown) || isTransientDatabaseError(thrown)) return { error: new ServiceUnavailable(), unexpected: true };
  return { error: new InternalError(), unexpected: true };
}

export function isDatabaseUnreachable(thrown: unknown): boolean {
  return thrown instanceof MongoServerSelectionError || thrown instanceof MongoNetworkError
    || thrown instanceof MongoTopologyClosedError || thrown instanceof MongoNotConnectedError
    || (thrown instanceof MongoError && WAIT_QUEUE_TIMEOUT.has(thrown.name))
    || SOCKET_FAILURES.has(String((thrown as { code?: unknown } | null)?.code));
}

// No pooled connection within waitQueueTimeoutMS (DB_TIMEOUT_MS): every connection is held by a
// call to a frozen or overloaded database. The driver does not export the class, only its name,
// which is `MongoWaitQueueTimeoutError` (the class is `WaitQueueTimeoutError`). Seen as a 500 on
// POST /mcp, and on an import, against a frozen database, which no request deadline answered first.
const WAIT_QUEUE_TIMEOUT = new Set(['MongoWaitQueueTimeoutError', 'WaitQueueTimeoutError']);

// A socket to the database that died under the driver ("This socket has been ended by the other
// party" is EPIPE) reaches us unwrapped when the database is killed or frozen mid-write; seen by
// `npm run chaos` and the frozen-database test on a loaded machine.
const SOCKET_FAILURES = new Set(['EPIPE', 'ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT']);

// SQLite's "database is locked" (SQLITE_BUSY) as FerretDB passes it on, under concurrent writes.
const BUSY = /database is locked|SQLITE_BUSY/i;
// MaxTimeMSExpired, and the codes MongoDB gives a server shutting down, stepping down or overloaded.
const TRANSIENT_CODES = new Set([50, 89, 91, 189, 262, 11600, 11602, 13435, 13436, 462]);

/**
 * A database error that passes by itself (busy, timed out, failing over): answered 503 with
 * Retry-After, never 500. MongoDB labels most such errors; FerretDB's SQLite says it in words.
 */
export function isTransientDatabaseError(thrown: unknown): boolean {
  if (thrown instanceof MongoOperationTimeoutError) return true;
  if (!(thrown instanceof MongoError)) return false;
  // PoolRequestedRetry: a call whose connection the driver interrupted when its monitor lost the
  // server (a frozen database); a bulk write wraps it in a MongoBulkWriteError with no code, which
  // answered 500 to an import.
  if (['TransientTransactionError', 'RetryableWriteError', 'SystemOverloadedError', 'RetryableError', 'PoolRequestedRetry'].some((label) => thrown.hasErrorLabel(label))) return true;
  if (thrown instanceof MongoServerError && typeof thrown.code === 'number' && TRANSIENT_CODES.has(thrown.code)) return true;
  return BUSY.test(thrown.message);
}
