// `npm run fuzz [-- --requests N] [--seed S]`: the HTTP fuzz suite, longer than its bounded run in
// `npm test`. Starts a database as the tests do (MONGODB_URI, or an embedded one in a temporary
// directory), the service on a free port, and prints requests tried, statuses and failures.
// `npm run fuzz -- --conformance [--max-examples N] [--seed S] [--operations REGEX]`: instead, schemathesis checks the
// service against its own OpenAPI document (scripts/fuzz/conformance.ts).
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { describeFigures, runConformance } from './fuzz/conformance.ts';
import { generateRequests } from './fuzz/requests.ts';
import { describeReport, runFuzz } from './fuzz/run.ts';
import { fuzzWorld } from './fuzz/setup.ts';
import { startTestDatabase, stopTestDatabase } from '../spec/support/database.ts';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '2000' },
    seed: { type: 'string', default: String(Date.now() % 1_000_000_000) },
    conformance: { type: 'boolean', default: false },
    'max-examples': { type: 'string', default: '20' },
    'report-dir': { type: 'string' },
    operations: { type: 'string' },
  },
});
const requests = Number(values.requests);
const seed = Number(values.seed);
const maxExamples = Number(values['max-examples']);
if (!Number.isSafeInteger(requests) || requests < 1 || !Number.isSafeInteger(seed) || !Number.isSafeInteger(maxExamples) || maxExamples < 1) {
  process.stderr.write('usage: npm run fuzz -- [--requests N] [--seed S] | --conformance [--max-examples N] [--seed S] [--report-dir D] [--operations REGEX]\n');
  process.exit(2);
}

const database = await startTestDatabase();
let exitCode = 1;
try {
  const world = await fuzzWorld();
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
  process.stdout.write(`fuzz: against ${database.server.label}, ${requests} requests, seed ${seed}\n`);
  const started = Date.now();
  const report = await runFuzz(world.target, generateRequests(world.targets, requests, seed), (progress) =>
    process.stdout.write(`  … ${progress.tried} tried, ${progress.failures.length} failures\n`));
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
