// Tests of scripts/types.ts (run as the command it is), the generator of server/schemas/generated/types.ts: it
// names types after titles, keeps shared defs shared, resolves $refs from local files only,
// copes with the 2020-12 keywords the schemas use, is deterministic, and reports staleness.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { repoRoot } from '../../server/config.ts';

const GENERATOR = path.join(repoRoot, 'scripts', 'types.ts');
const OUTPUT = path.join(repoRoot, 'server', 'schemas', 'generated', 'types.ts');

/** Runs the generator as `npm run types` does (a command: tests import no script), its output in a throwaway file. */
async function run(args: string[]): Promise<void> {
  try {
    await promisify(execFile)(process.execPath, [GENERATOR, ...args]);
  } catch (error) {
    throw new Error(String((error as { stderr?: string }).stderr || error));
  }
}

/** The types `npm run types` generates from the schemas/ folder `dir`; rejects with what it printed when it refuses. */
async function generate(dir: string): Promise<string> {
  const output = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'types-out-')), 'types.ts');
  await run(['--schemas', dir, '--out', output]);
  return fs.readFileSync(output, 'utf8');
}

/** What `npm run types -- --check` prints when `output` is not what schemas/ generate; undefined when it is. */
async function staleness(output: string): Promise<string | undefined> {
  return run(['--check', '--out', output]).then(() => undefined, (error: unknown) => String(error));
}

const BASE = 'https://catalog.example/schemas/';
const DRAFT = 'https://json-schema.org/draft/2020-12/schema';

/** A throwaway schemas/ folder holding the given files (path → schema). */
function schemaDir(files: Record<string, object>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'types-spec-'));
  for (const [file, schema] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), JSON.stringify(schema, null, 2));
  }
  return dir;
}

const ids = {
  $schema: DRAFT,
  $id: `${BASE}defs/ids.json`,
  title: 'Identifiers',
  description: 'Ids.',
  $defs: {
    thingId: { title: 'Thing id', description: 'Id of a thing.', type: 'string', 'x-id-prefix': 'thg_', pattern: '^thg_' },
  },
};

const thing = {
  $schema: DRAFT,
  $id: `${BASE}records/thing.json`,
  title: 'Thing',
  description: 'A thing.',
  type: 'object',
  additionalProperties: false,
  required: ['id', 'kind'],
  properties: {
    id: { $ref: '../defs/ids.json#/$defs/thingId', title: 'Thing id', description: 'Its id.' },
    parentId: { $ref: '../defs/ids.json#/$defs/thingId', title: 'Parent id', description: 'Its parent.' },
    kind: { title: 'Kind', description: 'Always thing.', const: 'thing' },
    size: { title: 'Size', description: 'Small or big.', type: 'string', enum: ['small', 'big'] },
    pair: {
      title: 'Pair', description: 'A name and a count.', type: 'array',
      prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false,
    },
    shape: { title: 'Shape', description: 'One of two.', oneOf: [{ $ref: '#/$defs/round' }, { type: 'string' }] },
    anything: { title: 'Anything', description: 'Any JSON value.' },
    updatedAt: { title: 'Updated at', description: 'Set by the service.', type: 'string', readOnly: true },
    title: { title: 'Title', description: 'A property called title.', type: 'string' },
  },
  if: { required: ['size'] },
  then: { required: ['shape'] },
  anyOf: [{ required: ['size'] }, { required: ['pair'] }], // a rule, not a shape: the type stays an interface
  $defs: {
    round: {
      title: 'Round shape', description: 'A circle.', type: 'object', additionalProperties: false,
      properties: { radius: { title: 'Radius', description: 'Radius.', type: 'number' } },
    },
  },
};

describe('generated TypeScript types (scripts/types.ts)', function () {
  this.timeout(60_000); // prettier formats the output; the machine is shared
  // Whether the committed output is current is checked by `npm test` itself (types -- --check).

  it('names types after titles and declares a shared def once, referred to by name', async () => {
    const text = await generate(schemaDir({ 'defs/ids.json': ids, 'records/thing.json': thing }));
    expect(text.startsWith('// Generated from schemas/ by `npm run types`; do not edit.')).to.equal(true);
    expect(text.match(/export type ThingId = string;/g)).to.have.length(1);
    expect(text).to.match(/^ {2}id: ThingId;$/m);
    expect(text).to.match(/^ {2}parentId\?: ThingId;$/m);
    expect(text).to.include('export interface Thing {');
    expect(text).to.include('export interface RoundShape {');
    // Property titles do not become types of their own; a property named `title` stays a property.
    expect(text).not.to.match(/export type (Kind|Size|Anything|ParentId|Title)\b/);
    expect(text).to.match(/^ {2}title\?: string;$/m);
    // The container root of defs/ids.json is not a type; x-id-prefix leaves no trace.
    expect(text).not.to.include('Identifiers');
    expect(text).not.to.include('x-id-prefix');
  });

  it('copes with const, enum, oneOf, prefixItems, if/then, anyOf rules, readOnly and untyped values', async () => {
    const text = await generate(schemaDir({ 'defs/ids.json': ids, 'records/thing.json': thing }));
    expect(text).to.match(/^ {2}kind: "thing";$/m);
    expect(text).to.match(/^ {2}size\?: "small" \| "big";$/m);
    // prefixItems without minItems allows shorter arrays; `items: false` forbids longer ones.
    expect(text).to.match(/^ {2}pair\?: \[\] \| \[string\] \| \[string, number\];$/m);
    expect(text).to.match(/^ {2}shape\?: RoundShape \| string;$/m);
    expect(text).to.match(/^ {2}anything\?: unknown;$/m);
    expect(text).to.match(/^ {2}updatedAt\?: string;$/m);
    expect(text).to.include('export interface RecordTypes {\n  "Thing": Thing;\n}');
  });

  it('is deterministic', async () => {
    const dir = schemaDir({ 'defs/ids.json': ids, 'records/thing.json': thing });
    expect(await generate(dir)).to.equal(await generate(dir));
  });

  it('refuses a $ref that leaves schemas/ instead of fetching it', async () => {
    const remote = { ...thing, properties: { ...thing.properties, id: { $ref: 'https://example.com/id.json' } } };
    const dir = schemaDir({ 'defs/ids.json': ids, 'records/thing.json': remote });
    const error = await generate(dir).then(() => undefined, (e: unknown) => e);
    expect(String(error)).to.include('names no file root or $defs entry of schemas/');
  });

  it('refuses two schemas whose titles give the same type name', async () => {
    const twin = { ...thing, $id: `${BASE}records/twin.json`, $defs: {} };
    const dir = schemaDir({ 'defs/ids.json': ids, 'records/thing.json': thing, 'records/twin.json': twin });
    const error = await generate(dir).then(() => undefined, (e: unknown) => e);
    expect(String(error)).to.include('would both be named Thing');
  });

  it('names the stale file when the output differs from what schemas/ generate', async () => {
    const copy = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'types-spec-')), 'types.ts');
    fs.writeFileSync(copy, `${fs.readFileSync(OUTPUT, 'utf8')}// edited by hand\n`);
    expect(await staleness(copy)).to.match(/types\.ts is stale: .*Run `npm run types`/);
    expect(await staleness(OUTPUT)).to.equal(undefined);
  });
});
