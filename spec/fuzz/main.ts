// `npm run fuzz [-- --requests N] [--seed S] [--clients C] [--near-limits W] [--db-timeout-ms MS]`:
// the HTTP fuzz suite, longer than its bounded run in `npm test`. Starts a database as the tests
// do (MONGODB_URI, or an embedded one in a temporary directory), the service on a free port with
// its default request budget, and prints requests tried, statuses, answer times and failures.
//   --clients C        senders at once (default 1; with more, only the bystander is compared)
//   --near-limits W    weight (against 16) of bodies near a record limit: keys, nesting or size
//   --db-timeout-ms    the service's DB_TIMEOUT_MS (default 4000, the service's own default)
// `npm run fuzz -- --conformance [--max-examples N] [--seed S] [--report-dir D] [--operations REGEX]`: instead,
// schemathesis checks the service against its own OpenAPI document (conformance.ts).
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { describeFigures, runConformance } from './conformance.ts';
import { generateRequests } from './requests.ts';
import { describeReport, runFuzz } from './run.ts';
import { fuzzWorld } from './setup.ts';
import { startTestDatabase, stopTestDatabase } from '../support/database.ts';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '2000' },
    seed: { type: 'string', default: String(Date.now() % 1_000_000_000) },
    clients: { type: 'string', default: '1' },
    'near-limits': { type: 'string', default: '0' },
    'db-timeout-ms': { type: 'string', default: '4000' },
    conformance: { type: 'boolean', default: false },
    'max-examples': { type: 'string', default: '20' },
    'report-dir': { type: 'string' },
    operations: { type: 'string' },
  },
});
const [requests, seed, clients, nearLimits, dbTimeoutMs, maxExamples] = [
  values.requests, values.seed, values.clients, values['near-limits'], values['db-timeout-ms'], values['max-examples'],
].map(Number) as [number, number, number, number, number, number];
if (![requests, seed, clients, nearLimits, dbTimeoutMs, maxExamples].every(Number.isSafeInteger)
  || requests < 1 || clients < 1 || nearLimits < 0 || dbTimeoutMs < 1 || maxExamples < 1) {
  process.stderr.write('usage: npm run fuzz -- [--requests N] [--seed S] [--clients C] [--near-limits W] [--db-timeout-ms MS]\n'
    + '       npm run fuzz -- --conformance [--max-examples N] [--seed S] [--report-dir D] [--operations REGEX]\n');
  process.exit(2);
}

const database = await startTestDatabase();
let exitCode = 1;
try {
  const world = await fuzzWorld({ DB_TIMEOUT_MS: String(dbTimeoutMs) });
  try {
    exitCode = values.conformance ? await conformance(world) : await fuzz(world);
  } finally {
    await world.close();
  }
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
} finally {
  await stopTestDatabase();
}
process.exit(exitCode);

async function fuzz(world: Awaited<ReturnType<typeof fuzzWorld>>): Promise<number> {
  process.stdout.write(`fuzz: against ${database.server.label}, ${requests} requests, seed ${seed}, ${clients} client(s), near-limit weight ${nearLimits}, DB_TIMEOUT_MS ${dbTimeoutMs}\n`);
  const started = Date.now();
  const report = await runFuzz(world.target, generateRequests(world.targets, requests, seed, { nearLimits }), {
    clients,
    onProgress: (progress) => process.stdout.write(`  … ${progress.tried} tried, ${progress.failures.length} failures\n`),
  });
  process.stdout.write(`${describeReport(report, seed)}\n`);
  process.stdout.write(`took ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return report.failures.length === 0 ? 0 : 1;
}

async function conformance(world: Awaited<ReturnType<typeof fuzzWorld>>): Promise<number> {
  const reportDir = values['report-dir'] ?? path.join(os.tmpdir(), `catalog-conformance-${process.pid}`);
  process.stdout.write(`conformance: against ${database.server.label}, ${maxExamples} examples per operation, seed ${seed}, reports in ${reportDir}\n`);
  const started = Date.now();
  const figures = await runConformance(world, { maxExamples, seed, reportDir, ...(values.operations && { operations: values.operations }) });
  process.stdout.write(`${describeFigures(figures)}\ntook ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return figures.exitCode;
}
