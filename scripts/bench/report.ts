// The run's result as one JSON-able object, and as the tables printed on stdout.
import { INSIGHTS_SCENARIO, type InsightsResult } from './insights.ts';
import type { OneShotResult } from './oneshot.ts';
import type { BenchOptions } from './options.ts';
import type { ProfileSummary } from './profile.ts';
import type { Ratio, VariantResult } from './stats.ts';

export interface MemoryAfter {
  rssMB: number;
  heapUsedMB: number;
  heapTotalMB: number;
  externalMB: number;
}

export interface ScenarioResult {
  id: string;
  title: string;
  request: string;
  databaseCalls: { service: string; bareDb: string };
  variants: VariantResult[];
  ratios: Ratio[];
  /** The servers process after the scenario's last round, after a full garbage collection. */
  memoryAfter: MemoryAfter;
}

export interface BenchResult {
  benchmark: 'catalog-service';
  schemaVersion: 1;
  startedAt: string;
  durationS: number;
  machine: { node: string; platform: string; cpus: number; cpuModel: string; memoryGB: number; loadAverageBefore: number[]; loadAverageAfter: number[] };
  database: { kind: string; label: string; source: 'MONGODB_URI' | 'embedded'; records: number };
  /** CPU (ms) the servers process used per second while idle, after the scenarios. */
  idleCpuMsPerS: number;
  options: Pick<BenchOptions, 'quick' | 'rounds' | 'seconds' | 'warmup' | 'connections' | 'records' | 'description'>;
  notes: string[];
  scenarios: ScenarioResult[];
  /** Import, export and copy of a real description, each once (oneshot.ts). */
  oneShot: OneShotResult[];
  /** Traffic reports against four real descriptions (insights.ts). */
  insights?: InsightsResult;
  profile?: ProfileSummary;
  /** Unexpected statuses or connection errors seen: the numbers of those variants are suspect. */
  problems: string[];
}

const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : '—');
const thousands = (value: number) => (Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : '—');
const times = (value: number) => (Number.isFinite(value) ? `×${value.toFixed(2)}` : '—');

/** Columns are right-aligned except those `left` names by index. */
function table(header: string[], rows: string[][], left: readonly number[] = [0]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => (left.includes(i) ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}

export function renderText(result: BenchResult): string {
  const { machine, database, options } = result;
  const out: string[] = [];
  out.push(`Catalog Service benchmark, ${result.startedAt} (${Math.round(result.durationS)} s)`);
  out.push(`Machine: node ${machine.node}, ${machine.cpus} CPUs (${machine.cpuModel}), load average ${machine.loadAverageBefore.map((l) => l.toFixed(2)).join(' ')} before, ${machine.loadAverageAfter.map((l) => l.toFixed(2)).join(' ')} after`);
  out.push(`Database: ${database.label} (${database.source === 'MONGODB_URI' ? 'MONGODB_URI, throwaway database' : 'embedded, temporary directory'}), ${database.records} paths seeded`);
  out.push(`Load: ${options.connections} connections, ${options.rounds} rounds x ${options.seconds} s per variant (+${options.warmup} s warm-up), variants interleaved in rotating order${options.quick ? ' [--quick: smoke run, numbers are rough]' : ''}`);
  for (const note of result.notes) out.push(`Note: ${note}`);
  out.push('');

  for (const scenario of result.scenarios) {
    out.push(`${scenario.title}    ${scenario.request}`);
    out.push(`  database calls: service ${scenario.databaseCalls.service}; bare-db ${scenario.databaseCalls.bareDb}`);
    const rows = scenario.variants.map((v) => [
      v.variant, thousands(v.rps), fixed(v.p50Ms, 2), fixed(v.p99Ms, 2), thousands(v.cpuUsPerRequest),
      v.unexpected + v.errors > 0 ? `${v.unexpected} bad status, ${v.errors} errors` : '',
    ]);
    out.push(...table(['  variant', 'req/s', 'p50 ms', 'p99 ms', 'cpu µs/req', ''], rows.map((row) => [`  ${row[0]}`, ...row.slice(1)]), [0, 5]));
    for (const r of scenario.ratios) {
      out.push(`  ${`${r.subject} ÷ ${r.baseline}`.padEnd(26)} req/s ${times(r.rps)}   p50 ${times(r.p50)}   p99 ${times(r.p99)}   cpu/req ${times(r.cpuPerRequest)}`);
    }
    const m = scenario.memoryAfter;
    out.push(`  servers process after (all three servers, after a full GC): rss ${m.rssMB.toFixed(0)} MB, heap used ${m.heapUsedMB.toFixed(0)} MB of ${m.heapTotalMB.toFixed(0)} MB, external ${m.externalMB.toFixed(0)} MB`);
    out.push('');
  }

  const summary = result.scenarios.flatMap((s) => s.ratios.filter((r) => r.subject === 'service').map((r) => [
    s.id, r.baseline, times(r.rps), times(r.p50), times(r.p99), times(r.cpuPerRequest),
  ]));
  if (summary.length > 0) {
    out.push('Summary: service ÷ baseline (median of per-round ratios; req/s below 1 and latency/cpu above 1 mean the service costs more)');
    out.push(...table(['scenario', 'baseline', 'req/s', 'p50', 'p99', 'cpu/req'], summary, [0, 1]));
    out.push('');
  }

  if (result.oneShot.length > 0) {
    const d = result.oneShot[0]!.description;
    out.push(`Import, export and copy of ${d.id}${result.oneShot.some((r) => r.description !== d) ? ' (changes: of the GitHub pair; records = changes found)' : ''} (${(d.bytes / 2 ** 20).toFixed(1)} MB), each once; memory of the servers process (all three servers), peak sampled during the scenario`);
    const mb = (value: number) => `${thousands(value)} MB`;
    out.push(...table(
      ['  scenario', 'status', 'wall s', 'records', 'records/s', 'size', 'cpu s', 'rss before', 'rss peak', 'heap before', 'heap peak'],
      result.oneShot.map((r) => [`  ${r.id}`, String(r.status), fixed(r.wallS, 1), thousands(r.records), thousands(r.recordsPerS), r.bytes === undefined ? '' : `${(r.bytes / 2 ** 20).toFixed(1)} MB`,
        fixed(r.cpuS, 1), mb(r.memory.before.rssMB), mb(r.memory.peak.rssMB), mb(r.memory.before.heapUsedMB), mb(r.memory.peak.heapUsedMB)]),
    ));
    const warnings = result.oneShot.find((r) => r.warnings !== undefined)?.warnings;
    if (warnings) out.push(`  the import reported ${thousands(warnings)} warnings (what it could not carry; see docs/openapi-import-export.md)`);
    out.push('');
  }

  if (result.insights && result.insights.steps.length > 0) {
    const steps = result.insights.steps;
    const reference = steps.find((step) => step.id === 'import')!;
    out.push(`${INSIGHTS_SCENARIO.title}: ${thousands(result.insights.operations)} operations; each report once, beside the import of the same catalog`);
    out.push(...table(
      ['  step', 'status', 'wall s', 'items', 'items/s', 'body', 'cpu s', 'peak rss', 'peak heap', 'wall ÷ import', 'peak rss ÷ import'],
      steps.map((step) => [`  ${step.id}`, String(step.status), fixed(step.wallS, 2), thousands(step.items), thousands(step.perS), `${(step.bytes / 2 ** 20).toFixed(1)} MB`,
        fixed(step.cpuS, 2), `${thousands(step.memory.peak.rssMB)} MB`, `${thousands(step.memory.peak.heapUsedMB)} MB`,
        fixed(step.wallS / reference.wallS, 3), fixed(step.memory.peak.rssMB / reference.memory.peak.rssMB, 2)]),
    ));
    out.push('  items: records imported (import), calls reported (har, otlp); answers: ' + steps.filter((step) => step.answer).map((step) => `${step.id} ${JSON.stringify(step.answer)}`).join('; '));
    out.push('');
  }

  if (result.profile) {
    const p = result.profile;
    out.push(`CPU profile of the servers process: ${p.file}`);
    out.push(`  busy ${p.busyMs.toFixed(0)} ms, idle ${p.idleMs.toFixed(0)} ms; top functions by self time (share of busy time):`);
    out.push(...table(['  self ms', 'share', 'function', 'where'], p.topFunctions.map((f) => [`  ${f.selfMs.toFixed(0)}`, `${(f.share * 100).toFixed(1)}%`, f.name, f.where]), [2, 3]));
    out.push('  self time by package / file:');
    out.push(...table(['  self ms', 'share', 'module'], p.byModule.map((m) => [`  ${m.selfMs.toFixed(0)}`, `${(m.share * 100).toFixed(1)}%`, m.module]), [2]));
    out.push('  time with the package / file on the stack (overlapping; synchronous work only):');
    out.push(...table(['  total ms', 'share', 'module'], p.inclusiveByModule.map((m) => [`  ${m.totalMs.toFixed(0)}`, `${(m.share * 100).toFixed(1)}%`, m.module]), [2]));
    out.push('');
  }
  out.push(`Servers process idle after the run: ${result.idleCpuMsPerS.toFixed(1)} ms of CPU per second (a floor under cpu/req; matters only at a few req/s)`);
  for (const problem of result.problems) out.push(`PROBLEM: ${problem}`);
  return out.join('\n');
}
