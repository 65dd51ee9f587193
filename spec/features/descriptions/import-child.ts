// A child process importing descriptions as dry runs, for the specs of the import's bounds: run
// with a bounded heap (--max-old-space-size), so that a description exhausting memory kills this
// child and fails its spec instead of killing the test runner. Not a spec itself.
// argv[2]: a JSON file {prefix, key, cases}; each case names a document built by expanding.ts.
// env MONGODB_URI: the run's database. Prints one JSON line per case, then one with peak RSS.
import fs from 'node:fs';
import { pino } from 'pino';
import supertest from 'supertest';
import { createApp } from '../../../server/app.ts';
import { openRuntime } from '../../../server/boot.ts';
import { loadConfig } from '../../../server/config.ts';
import { JWT_SECRET } from '../../support/catalog.ts';
import { built, type Built } from './expanding.ts';

export interface ChildInput {
  prefix: string;
  key: string;
  cases: Built[];
}

export interface CaseOutcome {
  name: string;
  bytes: number;
  status: number;
  details: { field: string; message: string }[];
  ms: number;
}

const { prefix, key, cases } = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as ChildInput;
// The import's own bounds are what this measures: lint is off, as everywhere in the suite (spec/support/catalog.ts).
// With it on, a dry run would also lint on the request, up to LINT_TIMEOUT_MS (spec/features/lint/bound.spec.ts).
const config = loadConfig({ MONGODB_URI: process.env['MONGODB_URI'], JWT_SECRET, LOG_LEVEL: 'silent', DB_TIMEOUT_MS: '15000', RATE_LIMIT: 'off', SEARCH_MODEL: 'off', LINT: 'off' });
const logger = pino({ level: 'silent' });
const runtime = await openRuntime(config, logger);
const request = supertest.agent(createApp({ ...runtime, logger }));
for (const [index, wanted] of cases.entries()) {
  const { text, type } = built(wanted);
  const start = performance.now();
  const res = await request.post(`${prefix}/imports/openapi?service=bomb-${index}&dryRun=true`)
    .set('Authorization', `Bearer ${key}`).set('Content-Type', type).send(text);
  const outcome: CaseOutcome = { name: wanted.name, bytes: Buffer.byteLength(text), status: res.status, details: res.body?.details ?? [], ms: Math.round(performance.now() - start) };
  process.stdout.write(`${JSON.stringify(outcome)}\n`);
}
process.stdout.write(`${JSON.stringify({ maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024) })}\n`);
await runtime.close();
