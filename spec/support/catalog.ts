// The service built in-process for tests: the real app on the run's database, driven with
// supertest (no port), plus helpers that make the tenancy a test needs in one line each.
import supertest from 'supertest';
import type { Express } from 'express';
import { pino } from 'pino';
import { createApp } from '../../server/app.ts';
import { openRuntime, type Runtime } from '../../server/boot.ts';
import { loadConfig } from '../../server/config.ts';
import { issueToken } from '../../server/auth/tokens.ts';
import type { SchemaRegistry } from '../../server/schemas/registry.ts';
import type { Project } from '../../server/tenancy/projects.ts';
import type { Version, VersionType } from '../../server/tenancy/versions.ts';
import { testDatabase } from './database.ts';

export const JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';

export interface TestCatalog {
  app: Express;
  runtime: Runtime;
  request: supertest.Agent;
  close(): Promise<void>;
}

/** A service on the run's database; `env` overrides configuration (BODY_LIMIT, ...). */
export async function startCatalog(env: Record<string, string> = {}, schemas?: SchemaRegistry): Promise<TestCatalog> {
  // DB_TIMEOUT_MS well above the default: a loaded machine makes a slow but healthy database,
  // which must not turn into 503s; the tests of the bound set their own. No rate limit unless a
  // test asks for one: suites walk every route with one credential.
  // No search model unless a test asks for one (spec/features/search/model*.spec.ts): loading it
  // costs each service 0.3 s and 200 MB, and embedding every import a core. No lint behind the
  // writes unless a test asks for it (spec/features/lint/): linting every import of the suite
  // would cost cores the other tests' timings count on (the lint gate still lints when asked).
  // Score cards likewise (spec/features/scores/ and the specs that read cards turn them on).
  const config = loadConfig({
    MONGODB_URI: testDatabase().uri, JWT_SECRET, LOG_LEVEL: 'silent', DB_TIMEOUT_MS: '15000', RATE_LIMIT: 'off', SEARCH_MODEL: 'off', LINT: 'off', SCORES: 'off', ...env,
  });
  const logger = pino({ level: 'silent' });
  const runtime = await openRuntime(config, logger, schemas);
  const app = createApp({ ...runtime, logger });
  return { app, runtime, request: supertest.agent(app), close: () => runtime.close() };
}

/** A project with one version and credentials of every kind for it. */
export interface Tenant {
  project: Project;
  version: Version;
  /** Read-write and read-only API keys. */
  key: string;
  readOnlyKey: string;
  /** Route prefixes of both families for this version: by version id, and by project, type and slug. */
  prefixes: { byId: string; byAddress: string };
}

let tenantCount = 0;

export async function givenTenant(service: TestCatalog, options: { type?: VersionType; slug?: string } = {}): Promise<Tenant> {
  const { tenancy } = service.runtime;
  const project = await tenancy.projects.create(`project-${process.pid}-${++tenantCount}`, 'Test project');
  const version = await tenancy.versions.create(project.id, options.type ?? 'branch', options.slug ?? 'main');
  const { secret: key } = await tenancy.apiKeys.create(project.id, false);
  const { secret: readOnlyKey } = await tenancy.apiKeys.create(project.id, true);
  return {
    project, version, key, readOnlyKey,
    prefixes: {
      byId: `/v2/catalog/versions/${version.id}`,
      byAddress: `/v2/catalog/projects/${project.slug}/${version.type}/${version.slug}`,
    },
  };
}

/** What catalogForSuite makes. */
export interface SuiteCatalog {
  service: TestCatalog;
  tenant: Tenant;
}

/**
 * A suite's usual start, as mocha hooks of the enclosing `describe`: before its tests, a service
 * on the run's database (`env` overrides configuration) and one tenant on it, handed to `use`;
 * after them, the service closed. Call it before the suite's own `before` hooks: mocha runs
 * them in order, so they see what it made.
 */
export function catalogForSuite(use: (made: SuiteCatalog) => void, env: Record<string, string> = {}): void {
  let service: TestCatalog | undefined;
  before(async () => {
    service = await startCatalog(env);
    use({ service, tenant: await givenTenant(service) });
  });
  after(() => service?.close());
}

/**
 * Two instances of the service on one database for the suite, each with what it keeps in memory
 * (search indexes, details, an import's records): one writes, the other must see it.
 */
export function instancePairForSuite(use: (a: TestCatalog, b: TestCatalog) => void): void {
  let pair: TestCatalog[] = [];
  before(async () => {
    pair = await Promise.all([startCatalog(), startCatalog()]);
    use(pair[0]!, pair[1]!);
  });
  after(async () => { await Promise.all(pair.map((instance) => instance.close())); });
}

/** A personal access token signed with the test secret. */
export function tokenFor(projects: string[] | 'all', options: { readOnly?: boolean; expiresInSeconds?: number; subject?: string } = {}): string {
  return issueToken({
    subject: options.subject ?? 'tester@example.com',
    projects,
    readOnly: options.readOnly ?? false,
    expiresInSeconds: options.expiresInSeconds ?? 3600,
  }, JWT_SECRET).token;
}

export function bearer(secret: string): { Authorization: string } {
  return { Authorization: `Bearer ${secret}` };
}
