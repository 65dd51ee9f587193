// The chaos run: writers create records as fast as they can while the service and its database
// are killed (SIGKILL) or frozen (SIGSTOP, then SIGCONT) at random moments; whatever stays down
// is restarted. At the end every write the service acknowledged (201) must be there.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ServiceProcess } from '../support/process.ts';
import { collectionNamed, newIdOf, sampleOf } from '../support/records.ts';
import { mulberry32 } from '../support/random.ts';
import { databasePid, freePort, startCatalog, type ServiceSetup } from './processes.ts';

export type Fault = 'service-kill' | 'service-stop' | 'database-kill' | 'database-stop';
export const FAULTS: readonly Fault[] = ['service-kill', 'service-stop', 'database-kill', 'database-stop'];

export interface ChaosOptions {
  cycles: number;
  seed: number;
  writers: number;
  /** Faults in order (cycled); random when absent. */
  faults?: readonly Fault[];
  /** How long a fault may last before the run restarts what is down. */
  recoveryLimitMs: number;
  /** Longest SIGSTOP. */
  maxFreezeMs: number;
  log?: (line: string) => void;
}

export interface CycleResult {
  fault: Fault;
  /** From the fault to the first 503 answer (undefined: none came). */
  msTo503: number | undefined;
  /** From the fault to the first acknowledged write begun after it. */
  msToRecover: number;
  /** Whether the run had to restart the service for writes to succeed again. */
  restarted: boolean;
}

export interface ChaosReport {
  cycles: CycleResult[];
  acknowledged: number;
  lost: number;
  /** Writes answered otherwise than 201 (by status, or `network` when no answer came). */
  refused: Record<string, number>;
  /** Distinct causes the service logged for its 500 answers (`request failed`), with counts. */
  causesOf500: Record<string, number>;
}

const COLLECTION = 'paths';
const PREFIX = '/v2/catalog/projects/demo/branch/main';

export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const setup: ServiceSetup = {
    port: await freePort(),
    databasePort: await freePort(),
    dataDir: await fs.mkdtemp(path.join(os.tmpdir(), 'catalog-chaos-')),
  };
  let service = await startCatalog(setup);
  try {
    return await drive(service, setup, options, (next) => {
      service = next;
    });
  } finally {
    // Whatever happened, nothing of the run is left running (service, then its database) or on disk.
    await stopAll(service, setup);
  }
}

async function drive(first: ServiceProcess, setup: ServiceSetup, options: ChaosOptions, replaced: (service: ServiceProcess) => void): Promise<ChaosReport> {
  const log = options.log ?? (() => {});
  const random = mulberry32(options.seed);
  let service = first;
  const outputs: (() => string)[] = [service.output];
  const restartService = async () => {
    service = await startCatalog(setup);
    outputs.push(service.output);
    replaced(service);
  };
  const [, key] = await service.waitFor(/\b(catk_[\w-]{43})\b/);
  const base = `http://127.0.0.1:${setup.port}${PREFIX}/${COLLECTION}`;
  const collection = collectionNamed(COLLECTION);

  // ---- the writers ------------------------------------------------------------------------
  const acknowledged = new Map<string, string>();
  const refused: Record<string, number> = {};
  const events: { at: number; started: number; status: number | 'network' }[] = [];
  let writing = true;
  const writer = async () => {
    while (writing) {
      const id = newIdOf(collection.idPrefix);
      const body: Record<string, unknown> = { ...sampleOf(collection), id };
      const started = Date.now();
      let status: number | 'network';
      try {
        const res = await fetch(base, {
          method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify(body), signal: AbortSignal.timeout(60_000),
        });
        status = res.status;
        await res.arrayBuffer();
      } catch {
        status = 'network';
      }
      events.push({ at: Date.now(), started, status });
      if (status === 201) acknowledged.set(id, String(body['path']));
      else {
        refused[status] = (refused[status] ?? 0) + 1;
        await sleep(50);
      }
    }
  };
  const writers = Array.from({ length: options.writers }, writer);

  // ---- the faults -------------------------------------------------------------------------
  const cycles: CycleResult[] = [];
  try {
    for (let cycle = 0; cycle < options.cycles; cycle++) {
      await sleep(300 + random() * 1200);
      const fault = options.faults ? options.faults[cycle % options.faults.length]! : FAULTS[Math.floor(random() * FAULTS.length)]!;
      const at = Date.now();
      let restarted = false;
      const restart = async () => {
        log(`  cycle ${cycle + 1}: restarting the service`);
        service.child.kill('SIGKILL');
        await service.exited;
        const databaseLeft = databasePid(setup.databasePort);
        // A frozen or orphaned database would answer no one: the fresh service starts its own.
        if (databaseLeft) process.kill(databaseLeft, 'SIGKILL');
        await restartService();
        restarted = true;
      };

      if (fault === 'service-kill') {
        service.child.kill('SIGKILL');
        await service.exited;
        // Its database goes with it (the wrapper sees the pipe close); a restart before it is gone
        // would attach to a server on its way out.
        await databaseGone(setup.databasePort);
        await sleep(random() * 500);
        // A killed service is restarted by its supervisor (systemd, Docker): here, by us.
        await restartService();
        restarted = true;
      } else if (fault === 'service-stop') {
        service.child.kill('SIGSTOP');
        await sleep(random() * options.maxFreezeMs);
        service.child.kill('SIGCONT');
      } else {
        const pid = databasePid(setup.databasePort);
        if (!pid) throw new Error('no embedded database process found');
        if (fault === 'database-kill') {
          process.kill(pid, 'SIGKILL');
        } else {
          process.kill(pid, 'SIGSTOP');
          await sleep(random() * options.maxFreezeMs);
          process.kill(pid, 'SIGCONT');
        }
      }

      // Writes must succeed again; past the limit, what is down is restarted (and that is reported).
      let recoveredAt = await firstAcknowledgedSince(events, at, options.recoveryLimitMs);
      if (recoveredAt === undefined && !restarted) {
        await restart();
        recoveredAt = await firstAcknowledgedSince(events, at, 60_000);
      }
      if (recoveredAt === undefined) throw new Error(`cycle ${cycle + 1} (${fault}): writes did not recover even after a restart`);
      const first503 = events.find((event) => event.at >= at && event.status === 503);
      const result: CycleResult = { fault, msTo503: first503 ? first503.at - at : undefined, msToRecover: recoveredAt - at, restarted };
      cycles.push(result);
      log(`  cycle ${cycle + 1}: ${fault}, 503 after ${result.msTo503 ?? '-'} ms, writes again after ${result.msToRecover} ms${restarted ? ' (restarted)' : ''}`);
    }
  } finally {
    writing = false;
    await Promise.all(writers);
  }

  // ---- the verification -------------------------------------------------------------------
  let lost = 0;
  for (const [id, pathValue] of acknowledged) {
    const res = await fetch(`${base}/${id}`, { headers: { authorization: `Bearer ${key}` } });
    const record = res.status === 200 ? (await res.json()) as { path?: unknown } : undefined;
    if (record?.path !== pathValue) {
      lost += 1;
      log(`  LOST ${id}: ${res.status}`);
    }
  }
  return { cycles, acknowledged: acknowledged.size, lost, refused, causesOf500: causesOf500(outputs.map((output) => output()).join('\n')) };
}

function causesOf500(output: string): Record<string, number> {
  const causes: Record<string, number> = {};
  for (const line of output.split('\n')) {
    if (!line.includes('"msg":"request failed"')) continue;
    try {
      const err = (JSON.parse(line) as { err?: { type?: string; message?: string } }).err;
      const cause = `${err?.type ?? 'Error'}: ${String(err?.message ?? '').replace(/\d+/g, 'N').slice(0, 120)}`;
      causes[cause] = (causes[cause] ?? 0) + 1;
    } catch {
      // not a JSON line
    }
  }
  return causes;
}

async function databaseGone(port: number, limitMs = 20_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (databasePid(port) !== undefined && Date.now() < deadline) await sleep(50);
}

/** Waits until an acknowledged write that began after `since` is seen; its time, or undefined after `limitMs`. */
async function firstAcknowledgedSince(events: { at: number; started: number; status: number | 'network' }[], since: number, limitMs: number): Promise<number | undefined> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const found = events.find((event) => event.started >= since && event.status === 201);
    if (found) return found.at;
    if (Date.now() > deadline) return undefined;
    await sleep(25);
  }
}

async function stopAll(service: ServiceProcess, setup: ServiceSetup): Promise<void> {
  const frozen = databasePid(setup.databasePort);
  if (frozen) process.kill(frozen, 'SIGCONT');
  service.child.kill('SIGCONT');
  await service.stop('SIGKILL');
  const left = databasePid(setup.databasePort);
  if (left) process.kill(left, 'SIGKILL');
  await fs.rm(setup.dataDir, { recursive: true, force: true });
}

/** The report as the lines `npm run chaos` prints. */
export function describeChaos(report: ChaosReport): string {
  const lines = [`chaos: cycles ${report.cycles.length}, writes acknowledged ${report.acknowledged}, writes lost ${report.lost}`,
    `writes not acknowledged: ${Object.entries(report.refused).map(([status, n]) => `${status}: ${n}`).join(', ') || 'none'}`,
    ...Object.entries(report.causesOf500).map(([cause, n]) => `500 cause (${n}×): ${cause}`)];
  for (const fault of FAULTS) {
    const of = report.cycles.filter((cycle) => cycle.fault === fault);
    if (of.length === 0) continue;
    const to503 = of.flatMap((cycle) => (cycle.msTo503 === undefined ? [] : [cycle.msTo503]));
    lines.push(`${fault}: ${of.length} cycles; time to 503 ${spread(to503)} (${to503.length} of ${of.length} saw one); `
      + `time to recover ${spread(of.map((cycle) => cycle.msToRecover))}; restarted by the run ${of.filter((cycle) => cycle.restarted).length}`);
  }
  return lines.join('\n');
}

function spread(values: number[]): string {
  if (values.length === 0) return '-';
  const sorted = [...values].sort((a, b) => a - b);
  return `median ${sorted[Math.floor(sorted.length / 2)]} ms, max ${sorted.at(-1)} ms`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
