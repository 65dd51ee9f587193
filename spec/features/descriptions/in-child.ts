// Importing descriptions in a child process with a bounded heap (import-child.ts), for the specs
// of the import's bounds: a description exhausting memory kills the child, not the test runner.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { testDatabase } from '../../support/database.ts';
import type { Tenant } from '../../support/catalog.ts';
import type { Built } from './expanding.ts';
import type { CaseOutcome, ChildInput } from './import-child.ts';

/** The child's heap: far above what a bounded import needs (about 200 MB measured), far below what an unbounded one takes. */
export const CHILD_HEAP_MB = 512;

/** Each case imported as a dry run in a child process with a heap of CHILD_HEAP_MB; its outcomes and its peak RSS. */
export async function importedInChild(tenant: Tenant, cases: Built[]): Promise<{ outcomes: CaseOutcome[]; maxRssMb: number }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-bounds-'));
  const input = path.join(dir, 'cases.json');
  fs.writeFileSync(input, JSON.stringify({ prefix: tenant.prefixes.byId, key: tenant.key, cases } satisfies ChildInput));
  const child = spawn(process.execPath, [`--max-old-space-size=${CHILD_HEAP_MB}`, path.join(import.meta.dirname, 'import-child.ts'), input], {
    env: { ...process.env, MONGODB_URI: testDatabase().uri }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => { out += chunk; });
  child.stderr.on('data', (chunk: Buffer) => { err += chunk; });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  fs.rmSync(dir, { recursive: true, force: true });
  const lines = out.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as CaseOutcome & { maxRssMb?: number });
  expect(code, `the child ended with ${code}: ${err.split('\n').filter((line) => !/ExperimentalWarning|--trace-warnings/.test(line)).slice(-5).join(' | ')}`).to.equal(0);
  return { outcomes: lines.filter((line) => line.maxRssMb === undefined), maxRssMb: lines.at(-1)!.maxRssMb! };
}

