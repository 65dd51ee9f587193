// `npm run bench:lint [-- --runs 3]`: GitHub's description imported with lint on and with
// LINT=off, alternating, each into a version of its own on the embedded database: the import's
// answer time side by side (lint runs behind the answer, so they should match), and with lint
// on, how long after the answer the lint report is stored and the score card made again with its
// findings (target: both within 60 s), and how long Spectral took on the lint thread. Each
// process finishes its cards before the next import, so that no run shares the machine with
// the one before.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { createApp } from '../../server/app.ts';
import { openRuntime, type Runtime } from '../../server/boot.ts';
import { loadConfig, repoRoot } from '../../server/config.ts';
import { provisionDatabase } from '../../server/database/provision.ts';

const GITHUB = path.join(repoRoot, 'node_modules/@octokit/openapi/generated/api.github.com.json');
const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const runs = Number(values.runs);

const work = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-lint-'));
const database = await provisionDatabase({ dataDir: path.join(work, 'db'), port: 0, engine: 'auto', cacheDir: path.join(repoRoot, '.cache'), log: () => {} });
const secret = randomBytes(48).toString('base64');

/** A service process on the benchmark's database, lint on or off. */
async function serve(lint: 'on' | 'off'): Promise<{ runtime: Runtime; url: string; close(): Promise<void> }> {
  const config = loadConfig({ MONGODB_URI: `${database.uri.replace(/\/$/, '')}/bench_lint`, JWT_SECRET: secret, LOG_LEVEL: 'silent', RATE_LIMIT: 'off', SEARCH_MODEL: 'off', DB_TIMEOUT_MS: '120000', LINT: lint });
  const runtime = await openRuntime(config, pino({ level: 'silent' }));
  const server = createApp({ ...runtime, logger: pino({ level: 'silent' }) }).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { runtime, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: async () => { await new Promise((resolve) => server.close(resolve)); await runtime.close(); } };
}

const [on, off] = [await serve('on'), await serve('off')];
try {
  const single = await fs.readFile(GITHUB);
  const project = await on.runtime.tenancy.projects.create('bench-lint', 'Lint benchmark');
  const { secret: key } = await on.runtime.tenancy.apiKeys.create(project.id, false);
  const timings = { on: [] as number[], off: [] as number[], stored: [] as number[], scored: [] as number[], spectral: [] as number[], findings: 0 };
  for (let i = 0; i < runs; i++) {
    for (const [mode, process_] of [['off', off], ['on', on]] as const) {
      const version = await on.runtime.tenancy.versions.create(project.id, 'branch', `${mode}-${i}`);
      const started = performance.now();
      const response = await fetch(`${process_.url}/v2/catalog/versions/${version.id}/imports/openapi?service=github`, {
        method: 'POST', body: single, headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      });
      if (response.status !== 201) throw new Error(`import answered ${response.status}: ${(await response.text()).slice(0, 500)}`);
      const answered = performance.now();
      timings[mode].push(answered - started);
      if (mode === 'on') {
        const { service } = await response.json() as { service: { id: string } };
        await on.runtime.lints.idle();
        timings.stored.push(performance.now() - answered);
        await on.runtime.scorer.settled();
        timings.scored.push(performance.now() - answered);
        const report = await on.runtime.lints.findingsOf(version.id, service.id);
        timings.spectral.push(report?.durationMs ?? NaN);
        timings.findings = report?.findings?.length ?? 0;
      } else {
        await response.arrayBuffer();
        await off.runtime.scorer.settled();
      }
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const line = (label: string, xs: number[]) => `${label} median ${seconds(median(xs))} (${xs.map(seconds).join(', ')})`;
  process.stdout.write([
    `GitHub (${(single.length / 1e6).toFixed(1)} MB), ${runs} runs each, alternating`,
    line('import answered, LINT=off:           ', timings.off),
    line('import answered, lint on:            ', timings.on),
    line('lint stored after the answer:        ', timings.stored),
    line('score card with its findings, after: ', timings.scored),
    line('Spectral on the lint thread:         ', timings.spectral),
    `findings: ${timings.findings}`,
  ].join('\n') + '\n');
} finally {
  await on.close();
  await off.close();
  await database.stop();
  await fs.rm(work, { recursive: true, force: true });
}
