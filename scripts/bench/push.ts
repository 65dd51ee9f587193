// `npm run bench:push`: GitHub's description split into files (one per path and per schema,
// by spec/support/split-description.ts) pushed with the push command, beside the same
// description imported as one file, each into a version of its own on the embedded database,
// alternating, --runs times each. The figure: the push's median over the import's (target ≤ 1.5).
// The push's time is the whole command: Node starting, bundling, posting, the import.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { pino } from 'pino';
import { createApp } from '../../server/app.ts';
import { openRuntime } from '../../server/boot.ts';
import { loadConfig, repoRoot } from '../../server/config.ts';
import { provisionDatabase } from '../../server/database/provision.ts';

const run = promisify(execFile);
const GITHUB = path.join(repoRoot, 'node_modules/@octokit/openapi/generated/api.github.com.json');
const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const runs = Number(values.runs);

const work = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-push-'));
const database = await provisionDatabase({ dataDir: path.join(work, 'db'), port: 0, engine: 'auto', cacheDir: path.join(repoRoot, '.cache'), log: () => {} });
const config = loadConfig({ MONGODB_URI: `${database.uri.replace(/\/$/, '')}/bench_push`, JWT_SECRET: randomBytes(48).toString('base64'), LOG_LEVEL: 'silent', RATE_LIMIT: 'off', SEARCH_MODEL: 'off', DB_TIMEOUT_MS: '120000' });
const runtime = await openRuntime(config, pino({ level: 'silent' }));
const server = createApp({ ...runtime, logger: pino({ level: 'silent' }) }).listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

try {
  const { stdout: split } = await run(process.execPath, [path.join(repoRoot, 'spec/support/split-description.ts'), GITHUB, path.join(work, 'github')]);
  const single = await fs.readFile(GITHUB);
  const project = await runtime.tenancy.projects.create('bench-push', 'Push benchmark');
  const { secret: key } = await runtime.tenancy.apiKeys.create(project.id, false);
  const timings = { import: [] as number[], push: [] as number[] };
  for (let i = 0; i < runs; i++) {
    const imported = await runtime.tenancy.versions.create(project.id, 'branch', `import-${i}`);
    let started = performance.now();
    const response = await fetch(`${url}/v2/catalog/versions/${imported.id}/imports/openapi?service=github`, {
      method: 'POST', body: single, headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    });
    if (response.status !== 201) throw new Error(`import answered ${response.status}: ${(await response.text()).slice(0, 500)}`);
    timings.import.push(performance.now() - started);
    await runtime.tenancy.versions.create(project.id, 'branch', `push-${i}`);
    started = performance.now();
    await run(process.execPath, [path.join(repoRoot, 'scripts/push.ts'), path.join(work, 'github', 'openapi.yaml'), '--project', 'bench-push', '--version', `branch/push-${i}`, '--service', 'github'], {
      env: { ...process.env, CATALOG_URL: url, CATALOG_TOKEN: key }, maxBuffer: 64 * 1024 * 1024,
    });
    timings.push.push(performance.now() - started);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  process.stdout.write([
    `GitHub (${(single.length / 1e6).toFixed(1)} MB), split: ${split.trim()}`,
    `import of the single file: median ${seconds(median(timings.import))} (${timings.import.map(seconds).join(', ')})`,
    `push of the split files:   median ${seconds(median(timings.push))} (${timings.push.map(seconds).join(', ')})`,
    `push / import: ${(median(timings.push) / median(timings.import)).toFixed(2)} (target at most 1.5)`,
  ].join('\n') + '\n');
} finally {
  await new Promise((resolve) => server.close(resolve));
  await runtime.close();
  await database.stop();
  await fs.rm(work, { recursive: true, force: true });
}
