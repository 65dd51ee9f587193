// The service process of `npm run bench:import-load` (started by import-load.ts with an IPC
// channel): the real app as `npm start` builds it, on a throwaway embedded database, with three
// tenants made for the run. It answers the parent's questions about itself: the event loop's
// delay over a phase (how long other requests could not even be looked at).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pino } from 'pino';
import { createApp } from '../../server/app.ts';
import { openRuntime } from '../../server/boot.ts';
import { loadConfig } from '../../server/config.ts';
import { createHttpServer } from '../../server/http/server.ts';

export interface LoadTenant { name: string; key: string; prefix: string }
export type ServerMessage =
  | { kind: 'ready'; port: number; tenants: LoadTenant[]; database: string }
  | { kind: 'loop'; maxMs: number; p99Ms: number; meanMs: number };
export type ParentMessage = { kind: 'loop-reset' } | { kind: 'loop-read' } | { kind: 'stop' };

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-bench-import-load-'));
const config = loadConfig({
  ...process.env, DATA_DIR: dataDir, PORT: '0', RATE_LIMIT: 'off', SEARCH_MODEL: 'off',
  LOG_LEVEL: process.env['LOG_LEVEL'] ?? 'warn', LOG_FORMAT: 'json', EMBEDDED_DB_PORT: process.env['EMBEDDED_DB_PORT'] ?? '27198',
});
const logger = pino({ level: config.logLevel });
const runtime = await openRuntime(config, logger);
const server = createHttpServer(createApp({ ...runtime, logger })).server.listen(0, '127.0.0.1');
await once(server, 'listening');

const tenants: LoadTenant[] = [];
for (const name of ['importer-a', 'importer-b', 'reader']) {
  const project = await runtime.tenancy.projects.create(`${name}-${process.pid}`, name);
  const version = await runtime.tenancy.versions.create(project.id, 'branch', 'main');
  const { secret } = await runtime.tenancy.apiKeys.create(project.id, false);
  tenants.push({ name, key: secret, prefix: `/v2/catalog/versions/${version.id}` });
}

const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
const send = (message: ServerMessage) => process.send!(message);
process.on('message', async (message: ParentMessage) => {
  if (message.kind === 'loop-reset') loop.reset();
  if (message.kind === 'loop-read') send({ kind: 'loop', maxMs: loop.max / 1e6, p99Ms: loop.percentile(99) / 1e6, meanMs: loop.mean / 1e6 });
  if (message.kind === 'stop') {
    server.close();
    await runtime.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  }
});
send({ kind: 'ready', port: (server.address() as AddressInfo).port, tenants, database: runtime.database.server.label });
