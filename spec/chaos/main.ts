// `npm run chaos [-- --cycles N] [--seed S] [--writers W]`: the service as a real process with its
// embedded FerretDB, writes driven through kills and freezes of both; prints cycles, writes
// acknowledged and lost, time to 503 and time to recover. Exits 1 if an acknowledged write is lost.
import { parseArgs } from 'node:util';
import { describeChaos, runChaos } from './run.ts';

const { values } = parseArgs({
  options: {
    cycles: { type: 'string', default: '12' },
    seed: { type: 'string', default: String(Date.now() % 1_000_000_000) },
    writers: { type: 'string', default: '4' },
    'recovery-limit-ms': { type: 'string', default: '30000' },
  },
});
const seed = Number(values.seed);
process.stdout.write(`chaos: ${values.cycles} cycles, ${values.writers} writers, seed ${seed}\n`);
const report = await runChaos({
  cycles: Number(values.cycles),
  seed,
  writers: Number(values.writers),
  recoveryLimitMs: Number(values['recovery-limit-ms']),
  maxFreezeMs: 5000,
  log: (line) => process.stdout.write(`${line}\n`),
});
process.stdout.write(`${describeChaos(report)}\n`);
process.exit(report.lost === 0 ? 0 : 1);
