// npm run bench:search:models -- <view.json> [--models a,b] [--tuning-only]: the models of the
// table (server/search/model/models.ts) side by side on a view saved by `npm run bench:search --
// --save-view <file>`: for each, in a process of its own (so that one model's memory is not
// counted against the next), the process memory (RSS) the model adds once loaded and once it has
// embedded every operation of the view, the embedding throughput over those texts (batches of 8
// on one thread, as the service runs it, nothing read from a vector file), and the accuracy of
// the service's hybrid ranking and of dense-only, both halves unless --tuning-only. A choice of
// default model is judged on the tuning half; the held-out half is only reported.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { MODELS } from '../../../server/search/model/models.ts';
import { evaluate, formatAccuracy, scoresOf, type RankerOutcomes } from './accuracy.ts';
import { evaluationHalves, tuningOnly } from './halves.ts';
import { benchModel, denseRanker, filledTable, fusedRanker } from './model-rankers.ts';
import { loadView } from './view-file.ts';

interface Measured {
  id: string;
  loadMs: number;
  loadedMb: number;
  embeddedMb: number;
  texts: number;
  seconds: number;
  /** CPU seconds (user and system) the embedding took: less at the mercy of the machine's load than `seconds`. */
  cpuSeconds: number;
  /** Half → ranking → whole-version hit@1 and hit@5 (with the service filter after). */
  figures: Record<string, Record<string, number[]>>;
  report: string[];
}

const args = process.argv.slice(2);
const file = args.find((arg, at) => !arg.startsWith('--') && !['--models', '--one'].includes(args[at - 1] ?? ''));
if (!file) throw new Error('usage: models.ts <view.json> [--models a,b] [--tuning-only]');
const one = args.includes('--one') ? args[args.indexOf('--one') + 1] : undefined;

if (one) console.log(JSON.stringify(await measure(file)));
else await sideBySide(file);

/** In this process: the model SEARCH_MODEL names, measured on the view. */
async function measure(viewFile: string): Promise<Measured> {
  const halves = await evaluationHalves();
  const view = loadView(viewFile);
  const services = new Map(view.of('services').map((service) => [String(service['slug']), service.id]));
  const rss = () => {
    globalThis.gc?.();
    return process.memoryUsage().rss / 2 ** 20;
  };
  const before = rss();
  const started = performance.now();
  await benchModel();
  const loadMs = performance.now() - started;
  const loaded = rss();
  // The vector file is a fresh one of this run (SEARCH_BENCH_VECTORS, set by the parent): every text is embedded.
  const cpu = process.cpuUsage();
  const { embedSeconds, embedded } = await filledTable(view);
  const { user, system } = process.cpuUsage(cpu);
  const embeddedMb = rss() - before;
  const results = await evaluate([await fusedRanker(view), await denseRanker(view)], halves, services);
  return {
    id: process.env['SEARCH_MODEL']!, loadMs, loadedMb: loaded - before, embeddedMb, texts: embedded, seconds: embedSeconds, cpuSeconds: (user + system) / 1e6,
    figures: Object.fromEntries(halves.map((set) => [set.half, figuresOf(results, set.half)])),
    report: formatAccuracy(results, halves),
  };
}

function figuresOf(results: readonly RankerOutcomes[], half: string): Record<string, number[]> {
  return Object.fromEntries(results.map((result) => {
    const whole = scoresOf(result.whole.filter((o) => o.half === half));
    const filtered = scoresOf(result.filtered.filter((o) => o.half === half));
    return [result.ranker, [whole.hit1, whole.hit5, filtered.hit1, filtered.hit5]];
  }));
}

/** Each model in a child process, one after the other (the machine's cores are shared), then one table. */
async function sideBySide(viewFile: string): Promise<void> {
  const at = args.indexOf('--models');
  const ids = at >= 0 ? (args[at + 1] ?? '').split(',') : MODELS.map((spec) => spec.id);
  const halves = await evaluationHalves();
  console.log(`# Search models side by side, ${new Date().toISOString()}`);
  console.log(`view ${viewFile}; node ${process.version}; ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  const measured: Measured[] = [];
  for (const id of ids) {
    const vectors = path.join(os.tmpdir(), `search-models-${process.pid}-${id}.json`);
    try {
      const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', import.meta.filename, viewFile, '--one', id, ...(tuningOnly ? ['--tuning-only'] : [])], {
        env: { ...process.env, SEARCH_MODEL: id, SEARCH_BENCH_VECTORS: vectors }, maxBuffer: 64 * 2 ** 20,
      });
      measured.push(JSON.parse(stdout.trim().split('\n').at(-1)!) as Measured);
      console.error(`${id} measured (load ${os.loadavg()[0]!.toFixed(1)})`);
    } finally {
      fs.rmSync(vectors, { force: true });
    }
  }
  const pct = (value: number) => `${Math.round(value * 100)}%`;
  console.log('\n## Cost: the model in the service\'s way (one thread, batches of 8)');
  console.log('| model | load | texts/s (embedding the view\'s operations) | texts per CPU second | RSS added: loaded | RSS added: with the view\'s vectors |');
  console.log('|---|---|---|---|---|---|');
  for (const m of measured) {
    console.log(`| ${m.id} | ${(m.loadMs / 1000).toFixed(1)} s | ${(m.texts / m.seconds).toFixed(0)} (${m.texts} in ${m.seconds.toFixed(0)} s) | ${(m.texts / m.cpuSeconds).toFixed(0)} | ${m.loadedMb.toFixed(0)} MB | ${m.embeddedMb.toFixed(0)} MB |`);
  }
  console.log('\n## Accuracy, hit@1 / hit@5, whole version (with service filter)');
  console.log(`| half | ${measured.flatMap((m) => Object.keys(m.figures[halves[0]!.half]!).map((ranker) => `${m.id} ${ranker}`)).join(' | ')} |`);
  console.log(`|---|${measured.flatMap((m) => Object.keys(m.figures[halves[0]!.half]!).map(() => '---')).join('|')}|`);
  for (const set of halves) {
    const cells = measured.flatMap((m) => Object.values(m.figures[set.half]!).map(([h1, h5, f1, f5]) => `${pct(h1!)} / ${pct(h5!)} (${pct(f1!)} / ${pct(f5!)})`));
    console.log(`| ${set.half} ${set.tasks.length} | ${cells.join(' | ')} |`);
  }
  for (const m of measured) {
    console.log(`\n## ${m.id}: the evaluation's tables`);
    for (const line of m.report) console.log(line);
  }
}
