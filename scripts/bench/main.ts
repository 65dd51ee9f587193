// `npm run bench`: starts a database, starts the servers process (the service and two bare
// baselines, see servers.ts), seeds records, then for each scenario runs every variant in turn,
// round after round, and reports medians and per-round ratios. Everything it starts is stopped
// on the way out, Ctrl-C included. See docs/benchmark.md.
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { repoRoot } from '../../server/config.ts';
import { provisionDatabase, type DatabaseServer, type EmbeddedEngine } from '../../server/database/provision.ts';
import { pathBodies } from './fixtures.ts';
import { burst, type Target } from './load.ts';
import type { PeakMemory } from './memory.ts';
import { INSIGHTS_SCENARIO, runInsights, type InsightsResult } from './insights.ts';
import { ONE_SHOTS, runOneShots, type OneShotResult, type Worker } from './oneshot.ts';
import { parseOptions, USAGE, UsageError, type BenchOptions } from './options.ts';
import { summariseProfile } from './profile.ts';
import type { ChildMessage, ParentMessage, Ready } from './protocol.ts';
import { renderText, type BenchResult, type MemoryAfter, type ScenarioResult } from './report.ts';
import { SCENARIOS, type Scenario, type TargetContext, type VariantName } from './scenarios.ts';
import { ratio, summarise, type Round, type VariantResult } from './stats.ts';

const SERVERS_ENTRY = path.join(import.meta.dirname, 'servers-entry.ts');
const DRAIN_POLL_MS = 25;
const DRAIN_MAX_MS = 15_000;
const MB = 1024 * 1024;

class Interrupted extends Error {}

export async function main(argv: readonly string[]): Promise<number> {
  let options: BenchOptions;
  try {
    const parsed = parseOptions(argv);
    if (parsed === 'help') {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    options = parsed;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`bench: ${error.message}\n`);
      return 2;
    }
    throw error;
  }

  const abort = new AbortController();
  const cleanups: (() => Promise<void>)[] = [];
  let forced: (() => void) | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (abort.signal.aborted) {
      process.stderr.write(`bench: ${signal} again, exiting now\n`);
      forced?.();
      process.exit(130);
    }
    process.stderr.write(`bench: ${signal}, stopping and cleaning up (again to force)\n`);
    abort.abort();
  };
  process.on('SIGINT', onSignal).on('SIGTERM', onSignal);

  try {
    const result = await run(options, abort.signal, cleanups, (kill) => (forced = kill));
    process.stdout.write(options.json ? `${JSON.stringify(result, null, 2)}\n` : `${renderText(result)}\n`);
    return result.problems.length > 0 ? 1 : 0;
  } catch (error) {
    if (error instanceof Interrupted || abort.signal.aborted) {
      process.stderr.write('bench: interrupted\n');
      return 130;
    }
    process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 1;
  } finally {
    for (const cleanup of cleanups.reverse()) {
      await cleanup().catch((error: unknown) => process.stderr.write(`bench: cleanup: ${String(error)}\n`));
    }
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
  }
}

const runStarted = performance.now();
const progress = (line: string) => process.stderr.write(`[bench ${((performance.now() - runStarted) / 1000).toFixed(1).padStart(5)} s] ${line}\n`);

async function run(options: BenchOptions, signal: AbortSignal, cleanups: (() => Promise<void>)[], onForce: (kill: () => void) => void): Promise<BenchResult> {
  const startedAt = new Date();
  const loadAverageBefore = os.loadavg();
  const checkpoint = () => {
    if (signal.aborted) throw new Interrupted();
  };

  // --- the database ------------------------------------------------------------------------
  const given = process.env['MONGODB_URI']?.trim() || undefined;
  const databaseName = given ? `catalog_bench_${randomBytes(4).toString('hex')}` : 'catalog_bench';
  let dataDir: string | undefined;
  let databaseServer: DatabaseServer | undefined;
  if (!given) {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'catalog-bench-'));
    dataDir = dir;
    cleanups.push(() => fs.rm(dir, { recursive: true, force: true }));
    const server = await provisionDatabase({
      dataDir: dir,
      port: 0,
      engine: (process.env['EMBEDDED_DB'] as EmbeddedEngine | undefined) ?? 'auto',
      cacheDir: path.join(repoRoot, '.cache'),
      log: (message) => progress(message),
    });
    databaseServer = server;
    cleanups.push(() => server.stop());
  }
  checkpoint();
  const uri = withDatabaseName(given ?? databaseServer!.uri, databaseName);

  // --- the servers process -----------------------------------------------------------------
  // --expose-gc: the memory figures after each scenario are taken after a full collection.
  const servers = new ServersProcess(['--expose-gc'], options.verbose);
  cleanups.push(() => servers.stop(given !== undefined));
  onForce(() => servers.kill());
  const ready = await servers.request<Ready>({ type: 'start', uri, jwtSecret: randomBytes(48).toString('base64url') }, 120_000, signal);
  progress(`servers up: ${ready.server.label}; service :${ready.ports.service}, bare-memory :${ready.ports.bareMemory}, bare-db :${ready.ports.bareDb}`);

  // --- records -------------------------------------------------------------------------------
  const { ids } = await servers.request<Extract<ChildMessage, { type: 'seeded' }>>({ type: 'seed', bodies: pathBodies(options.records) }, 300_000, signal);
  progress(`seeded ${ids.length} paths`);

  const context: TargetContext = { ready, ids };
  const problems: string[] = [];
  const scenarios = SCENARIOS.filter((s) => options.scenarios.includes(s.id));
  // Reads are checked before any write changes what the in-memory server would have to answer.
  for (const scenario of scenarios.filter((s) => s.variants.includes('bare-memory'))) problems.push(...await sanityCheck(scenario, context, options.variants));

  // --- the scenarios -------------------------------------------------------------------------
  if (options.profile) await servers.request({ type: 'profile', action: 'start' }, 10_000, signal);
  const results: ScenarioResult[] = [];
  for (const scenario of scenarios) {
    const variants = scenario.variants.filter((v) => options.variants.includes(v));
    if (variants.length === 0) continue;
    if (!scenario.variants.includes('bare-memory')) problems.push(...await sanityCheck(scenario, context, variants));
    const targets = new Map(variants.map((v) => [v, scenario.target(context, v)] as const));
    progress(`${scenario.id}: ${variants.join(', ')}`);
    if (options.warmup > 0) {
      for (const variant of variants) {
        checkpoint();
        await burst(targets.get(variant)!, { seconds: options.warmup, connections: options.connections, signal });
        await drained(servers, signal);
      }
    }
    const rounds = new Map<VariantName, Round[]>(variants.map((v) => [v, []]));
    for (let round = 0; round < options.rounds; round++) {
      const order = variants.map((_, i) => variants[(i + round) % variants.length]!);
      for (const [position, variant] of order.entries()) {
        checkpoint();
        rounds.get(variant)!.push(await measured(servers, targets.get(variant)!, options, signal, round, position));
      }
    }
    checkpoint();
    const summaries = variants.map((v) => summarise(v, rounds.get(v)!));
    for (const s of summaries) {
      if (s.unexpected > 0 || s.errors > 0) problems.push(`${scenario.id} ${s.variant}: ${s.unexpected} answers with another status than expected, ${s.errors} connection errors or timeouts`);
      if (s.ok === 0) problems.push(`${scenario.id} ${s.variant}: no successful answer`);
    }
    const stats = await servers.request<StatsReply>({ type: 'stats', gc: true }, 10_000, signal);
    results.push({
      id: scenario.id,
      title: scenario.title,
      request: scenario.request,
      databaseCalls: scenario.databaseCalls,
      variants: summaries,
      ratios: ratiosOf(summaries),
      memoryAfter: memoryOf(stats.memory),
    });
  }

  let profileFile: string | undefined;
  if (options.profile) {
    const file = path.join(os.tmpdir(), `catalog-bench-${startedAt.toISOString().replace(/[:.]/g, '-')}.cpuprofile`);
    profileFile = (await servers.request<Extract<ChildMessage, { type: 'profiled' }>>({ type: 'profile', action: 'stop', file }, 60_000, signal)).file;
  }

  // What the servers process burns doing nothing (driver monitoring, timers): a floor under
  // cpu/req that matters only for the slowest scenarios.
  const idleMs = options.quick ? 500 : 1000;
  const idleStart = await drained(servers, signal);
  await sleep(idleMs, undefined, { signal }).catch(() => checkpoint());
  const idleCpuMsPerS = cpuOf(await servers.request<StatsReply>({ type: 'stats' }, 10_000, signal), idleStart) / idleMs;

  // --- import, export, copy: last, in a version of their own (see oneshot.ts) ---------------
  let oneShot: OneShotResult[] = [];
  const worker: Worker = {
    cpuS: async () => {
      const { cpu } = await servers.request<StatsReply>({ type: 'stats' }, 60_000, signal);
      return (cpu.user + cpu.system) / 1e6;
    },
    memory: async (action) => (await servers.request<Extract<ChildMessage, { type: 'memory' }>>({ type: 'memory', action }, 60_000, signal)).peak as PeakMemory | undefined,
  };
  if (ONE_SHOTS.some((s) => options.scenarios.includes(s.id))) {
    const done = await runOneShots(options.scenarios, options.description, ready, worker, progress, signal);
    oneShot = done.results;
    problems.push(...done.problems);
  }
  // --- traffic reports against four real descriptions (see insights.ts) ---------------------
  let insights: InsightsResult | undefined;
  if (options.scenarios.includes(INSIGHTS_SCENARIO.id)) {
    insights = await runInsights(ready, worker, progress, signal);
    problems.push(...insights.problems);
  }
  if (problems.length > 0) process.stderr.write(servers.logTail());

  const finishedAt = new Date();
  const cpus = os.cpus();
  return {
    benchmark: 'catalog-service',
    schemaVersion: 1,
    startedAt: startedAt.toISOString(),
    durationS: (finishedAt.getTime() - startedAt.getTime()) / 1000,
    machine: {
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      cpus: cpus.length,
      cpuModel: cpus[0]?.model.trim() ?? 'unknown',
      memoryGB: Math.round(os.totalmem() / 1024 ** 3),
      loadAverageBefore,
      loadAverageAfter: os.loadavg(),
    },
    database: { kind: ready.server.kind, label: ready.server.label, source: given ? 'MONGODB_URI' : 'embedded', records: ids.length },
    idleCpuMsPerS,
    options: { quick: options.quick, rounds: options.rounds, seconds: options.seconds, warmup: options.warmup, connections: options.connections, records: options.records, description: options.description },
    notes: notesFor(ready, dataDir),
    scenarios: results,
    oneShot,
    ...(insights && { insights }),
    ...(profileFile && { profile: summariseProfile(profileFile) }),
    problems,
  };
}

type StatsReply = Extract<ChildMessage, { type: 'stats' }>;

/**
 * One recorded burst, with the servers process's CPU time over it. The CPU time runs until the
 * requests the burst left in flight have been answered, so it includes the work they cost.
 */
async function measured(servers: ServersProcess, target: Target, options: BenchOptions, signal: AbortSignal, round: number, position: number): Promise<Round> {
  const before = await servers.request<StatsReply>({ type: 'stats' }, 10_000, signal);
  const result = await burst(target, {
    seconds: options.seconds,
    connections: options.connections,
    minResponses: 2 * options.connections,
    maxSeconds: 2 * options.seconds,
    signal,
  });
  const after = await drained(servers, signal);
  const cpuUs = cpuOf(after, before);
  const systemUs = after.cpu.system - before.cpu.system;
  return { round, position, burst: result, cpuUsPerRequest: result.ok > 0 ? cpuUs / result.ok : NaN, systemShare: cpuUs > 0 ? systemUs / cpuUs : NaN };
}

/** CPU microseconds of the servers process between two stats. */
function cpuOf(after: StatsReply, before: StatsReply): number {
  return (after.cpu.user + after.cpu.system) - (before.cpu.user + before.cpu.system);
}

/** Waits until the servers have answered every request they received (bounded). */
async function drained(servers: ServersProcess, signal: AbortSignal): Promise<StatsReply> {
  const deadline = performance.now() + DRAIN_MAX_MS;
  for (;;) {
    const stats = await servers.request<StatsReply>({ type: 'stats' }, 10_000, signal);
    if (stats.inFlight === 0 || performance.now() > deadline) return stats;
    await sleep(DRAIN_POLL_MS);
  }
}

function ratiosOf(summaries: VariantResult[]) {
  const find = (name: VariantName) => summaries.find((s) => s.variant === name);
  const pairs: [VariantName, VariantName][] = [
    ['service', 'bare-memory'], ['service', 'bare-db'], ['service-pat', 'bare-db'], ['service', 'service-pat'], ['service', 'service-v'],
  ];
  return pairs.flatMap(([subject, baseline]) => {
    const a = find(subject);
    const b = find(baseline);
    return a && b ? [ratio(a, b)] : [];
  });
}

function memoryOf(memory: NodeJS.MemoryUsage): MemoryAfter {
  return { rssMB: memory.rss / MB, heapUsedMB: memory.heapUsed / MB, heapTotalMB: memory.heapTotal / MB, externalMB: memory.external / MB };
}

function notesFor(ready: Ready, dataDir: string | undefined): string[] {
  const notes = [
    'Absolute numbers depend on the machine and on whatever else runs on it; compare the ratios, which pair variants measured back to back in the same round.',
    'The load generator, the servers process and the database share the machine\'s CPUs, so a cheaper handler also leaves more CPU to the database and the load generator.',
  ];
  if (ready.server.kind === 'ferretdb') {
    notes.push('FerretDB: every filter, sort and limit other than an exact _id match runs in FerretDB\'s own process over the whole collection, so list latency grows O(N) with the number of records (docs/database.md). List timings here are FerretDB\'s, not MongoDB\'s; the GET and write ratios are more telling.');
  }
  if (dataDir) notes.push(`Embedded database in ${dataDir} (removed at the end).`);
  return notes;
}

// --- checks ----------------------------------------------------------------------------------

/** One request to each variant: the expected status, and for reads the same JSON from service, service-v and bare-memory. */
async function sanityCheck(scenario: Scenario, context: TargetContext, wanted: readonly VariantName[]): Promise<string[]> {
  const problems: string[] = [];
  const bodies = new Map<VariantName, string>();
  for (const variant of scenario.variants.filter((v) => wanted.includes(v))) {
    const target = scenario.target(context, variant);
    // The same item for every variant (each target cycles through the ids from the start).
    const url = `${target.origin}${target.path()}`;
    const response = await fetch(url, { method: target.method, headers: target.headers, ...(target.body !== undefined && { body: target.body() }) });
    const text = await response.text();
    if (response.status !== target.expect) problems.push(`${scenario.id} ${variant}: ${target.method} ${url} answered ${response.status} (expected ${target.expect}): ${text.slice(0, 300)}`);
    bodies.set(variant, text);
  }
  const service = bodies.get('service');
  const memory = bodies.get('bare-memory');
  if (service !== undefined && memory !== undefined && service !== memory) {
    problems.push(`${scenario.id}: bare-memory does not answer the service's JSON (${service.length} vs ${memory.length} bytes)`);
  }
  // The two families name the same version: the same answer, byte for byte.
  const byId = bodies.get('service-v');
  if (service !== undefined && byId !== undefined && service !== byId) {
    problems.push(`${scenario.id}: family V does not answer what family P answers (${byId.length} vs ${service.length} bytes)`);
  }
  return problems;
}

// --- the servers process ---------------------------------------------------------------------

type Request = ParentMessage extends infer M ? (M extends { seq: number } ? Omit<M, 'seq'> : never) : never;

class ServersProcess {
  readonly #child: ChildProcess;
  readonly #pending = new Map<number, { resolve: (message: ChildMessage) => void; reject: (error: Error) => void }>();
  readonly #exited: Promise<void>;
  #seq = 0;
  #log = '';
  #stopped = false;

  constructor(execArgv: string[], verbose: boolean) {
    this.#child = fork(SERVERS_ENTRY, [], { execArgv, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    const keep = (chunk: Buffer) => {
      this.#log = (this.#log + chunk.toString()).slice(-20_000);
      if (verbose) process.stderr.write(chunk);
    };
    this.#child.stdout!.on('data', keep);
    this.#child.stderr!.on('data', keep);
    this.#child.on('message', (message: ChildMessage) => {
      const pending = this.#pending.get(message.seq);
      if (!pending) return;
      this.#pending.delete(message.seq);
      if (message.type === 'failed') pending.reject(new Error(`servers process: ${message.message}`));
      else pending.resolve(message);
    });
    this.#exited = new Promise((resolve) => {
      this.#child.once('exit', (code, signal) => {
        for (const { reject } of this.#pending.values()) reject(new Error(`servers process exited (${signal ?? `code ${code}`})\n${this.logTail()}`));
        this.#pending.clear();
        resolve();
      });
    });
  }

  request<T extends ChildMessage>(message: Request, timeoutMs: number, signal?: AbortSignal): Promise<T> {
    const seq = ++this.#seq;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(seq);
        reject(new Error(`servers process did not answer "${message.type}" within ${timeoutMs / 1000} s\n${this.logTail()}`));
      }, timeoutMs);
      const onAbort = () => {
        this.#pending.delete(seq);
        clearTimeout(timer);
        reject(new Interrupted());
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      const settle = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      this.#pending.set(seq, {
        resolve: (reply) => (settle(), resolve(reply as T)),
        reject: (error) => (settle(), reject(error)),
      });
      this.#child.send({ ...message, seq } as ParentMessage);
    });
  }

  /** Asks the process to close its servers and database client and exit; kills it if it does not. */
  async stop(dropDatabase: boolean): Promise<void> {
    if (this.#stopped) return this.#exited;
    this.#stopped = true;
    if (this.#child.exitCode === null && this.#child.signalCode === null && this.#child.connected) {
      await this.request({ type: 'shutdown', dropDatabase }, 20_000).catch(() => this.kill());
    }
    const exited = await Promise.race([this.#exited.then(() => true), sleep(10_000).then(() => false)]);
    if (!exited) {
      this.kill();
      await this.#exited;
    }
  }

  kill(): void {
    if (this.#child.exitCode === null && this.#child.signalCode === null) this.#child.kill('SIGKILL');
  }

  logTail(): string {
    return this.#log ? `--- servers process output (last ${this.#log.length} characters) ---\n${this.#log}\n---\n` : '';
  }
}

/** The URI with its path set to `name`, keeping any options. */
function withDatabaseName(uri: string, name: string): string {
  const match = /^(mongodb(?:\+srv)?:\/\/[^/?]*)\/?[^?]*(\?.*)?$/.exec(uri);
  if (!match) throw new Error(`not a MongoDB URI: ${uri}`);
  return `${match[1]}/${name}${match[2] ?? ''}`;
}
