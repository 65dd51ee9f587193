// `npm run fuzz [-- --requests N] [--seed S] [--clients C] [--near-limits W] [--db-timeout-ms MS]`:
// the HTTP fuzz suite, longer than its bounded run in `npm test`. Starts a database as the tests
// do (MONGODB_URI, or an embedded one in a temporary directory), the service on a free port with
// its default request budget, and prints requests tried, statuses, answer times and failures.
//   --clients C        senders at once (default 1; with more, only the bystander is compared)
//   --near-limits W    weight (against 16) of bodies near a record limit: keys, nesting or size
//   --db-timeout-ms    the service's DB_TIMEOUT_MS (default 4000, the service's own default)
import { parseArgs } from 'node:util';
import { generateRequests } from './fuzz/requests.ts';
import { describeReport, runFuzz } from './fuzz/run.ts';
import { fuzzWorld } from './fuzz/setup.ts';
import { startTestDatabase, stopTestDatabase } from '../spec/support/database.ts';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '2000' },
    seed: { type: 'string', default: String(Date.now() % 1_000_000_000) },
    clients: { type: 'string', default: '1' },
    'near-limits': { type: 'string', default: '0' },
    'db-timeout-ms': { type: 'string', default: '4000' },
  },
});
const [requests, seed, clients, nearLimits, dbTimeoutMs] = [values.requests, values.seed, values.clients, values['near-limits'], values['db-timeout-ms']].map(Number) as [number, number, number, number, number];
if (![requests, seed, clients, nearLimits, dbTimeoutMs].every(Number.isSafeInteger) || requests < 1 || clients < 1 || nearLimits < 0 || dbTimeoutMs < 1) {
  process.stderr.write('usage: npm run fuzz -- [--requests N] [--seed S] [--clients C] [--near-limits W] [--db-timeout-ms MS]\n');
  process.exit(2);
}

const database = await startTestDatabase();
process.stdout.write(`fuzz: against ${database.server.label}, ${requests} requests, seed ${seed}, ${clients} client(s), near-limit weight ${nearLimits}, DB_TIMEOUT_MS ${dbTimeoutMs}\n`);
const world = await fuzzWorld({ DB_TIMEOUT_MS: String(dbTimeoutMs) });
let exitCode = 1;
try {
  const started = Date.now();
  const report = await runFuzz(world.target, generateRequests(world.targets, requests, seed, { nearLimits }), {
    clients,
    onProgress: (progress) => process.stdout.write(`  … ${progress.tried} tried, ${progress.failures.length} failures\n`),
  });
  process.stdout.write(`${describeReport(report, seed)}\n`);
  process.stdout.write(`took ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  exitCode = report.failures.length === 0 ? 0 : 1;
} finally {
  await world.close();
  await stopTestDatabase();
}
process.exit(exitCode);
