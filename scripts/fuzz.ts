// `npm run fuzz [-- --requests N] [--seed S]`: the HTTP fuzz suite, longer than its bounded run in
// `npm test`. Starts a database as the tests do (MONGODB_URI, or an embedded one in a temporary
// directory), the service on a free port, and prints requests tried, statuses and failures.
import { parseArgs } from 'node:util';
import { generateRequests } from './fuzz/requests.ts';
import { describeReport, runFuzz } from './fuzz/run.ts';
import { fuzzWorld } from './fuzz/setup.ts';
import { startTestDatabase, stopTestDatabase } from '../spec/support/database.ts';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '2000' },
    seed: { type: 'string', default: String(Date.now() % 1_000_000_000) },
  },
});
const requests = Number(values.requests);
const seed = Number(values.seed);
if (!Number.isSafeInteger(requests) || requests < 1 || !Number.isSafeInteger(seed)) {
  process.stderr.write('usage: npm run fuzz -- [--requests N] [--seed S]\n');
  process.exit(2);
}

const database = await startTestDatabase();
process.stdout.write(`fuzz: against ${database.server.label}, ${requests} requests, seed ${seed}\n`);
const world = await fuzzWorld();
let exitCode = 1;
try {
  const started = Date.now();
  const report = await runFuzz(world.target, generateRequests(world.targets, requests, seed), (progress) =>
    process.stdout.write(`  … ${progress.tried} tried, ${progress.failures.length} failures\n`));
  process.stdout.write(`${describeReport(report, seed)}\n`);
  process.stdout.write(`took ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  exitCode = report.failures.length === 0 ? 0 : 1;
} finally {
  await world.close();
  await stopTestDatabase();
}
process.exit(exitCode);
