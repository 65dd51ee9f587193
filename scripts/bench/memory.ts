// Peak memory of the process doing a piece of work (an import, an export, a copy): RSS (what the
// machine has to have) and V8's heap used (what JavaScript holds). A timer alone misses the
// peaks: an import parses, validates and dereferences tens of MB synchronously (35 s without a
// turn of the event loop for Microsoft Graph beta), so no timer fires while the copies are
// alive. Hence three sources, the highest of each figure kept:
//   - the kernel's high-water mark of RSS (VmHWM in /proc/self/status, reset at start through
//     /proc/self/clear_refs; Linux only),
//   - V8's heap statistics just before every garbage collection (v8.GCProfiler), which is when
//     the heap is fullest, and collections do run inside synchronous work,
//   - a timer sampling process.memoryUsage(), which covers the rest (other platforms, and the
//     heap between collections).
import fs from 'node:fs';
import v8 from 'node:v8';

export interface MemoryFigures { rssMB: number; heapUsedMB: number }

export interface PeakMemory {
  /** At start (after a full GC where the process allows it: node --expose-gc). */
  before: MemoryFigures;
  /** The highest of each figure from start to stop. */
  peak: MemoryFigures;
  /** Where the RSS peak comes from: the kernel's high-water mark, or samples only. */
  rssSource: 'VmHWM' | 'samples';
}

type Usage = Pick<NodeJS.MemoryUsage, 'rss' | 'heapUsed'>;

const MB = 1024 * 1024;
const STATUS = '/proc/self/status';
const CLEAR_REFS = '/proc/self/clear_refs';

export class MemorySampler {
  readonly #intervalMs: number;
  #timer: NodeJS.Timeout | undefined;
  #gc: v8.GCProfiler | undefined;
  #before: MemoryFigures | undefined;
  #peak: MemoryFigures = { rssMB: 0, heapUsedMB: 0 };
  #kernelPeak = false;

  constructor(options: { intervalMs?: number } = {}) {
    this.#intervalMs = options.intervalMs ?? 20;
  }

  get running(): boolean {
    return this.#before !== undefined;
  }

  start(): void {
    if (this.#before) throw new Error('the memory sampler is already running');
    (globalThis as { gc?: () => void }).gc?.();
    this.#kernelPeak = resetHighWaterMark();
    const now = usage();
    this.#before = { ...now };
    this.#peak = { ...now };
    this.#gc = new v8.GCProfiler();
    this.#gc.start();
    this.#timer = setInterval(() => this.#sample(usage()), this.#intervalMs);
  }

  stop(): PeakMemory {
    const before = this.#before;
    if (!before) throw new Error('the memory sampler is not running');
    clearInterval(this.#timer);
    this.#sample(usage());
    for (const gc of this.#gc!.stop()?.statistics ?? []) this.#sample({ rssMB: 0, heapUsedMB: gc.beforeGC.heapStatistics.usedHeapSize / MB });
    const kernel = this.#kernelPeak ? highWaterMarkMB() : undefined;
    if (kernel !== undefined) this.#sample({ rssMB: kernel, heapUsedMB: 0 });
    this.#before = undefined;
    this.#timer = undefined;
    this.#gc = undefined;
    return { before, peak: { ...this.#peak }, rssSource: kernel !== undefined ? 'VmHWM' : 'samples' };
  }

  #sample(now: MemoryFigures): void {
    this.#peak.rssMB = Math.max(this.#peak.rssMB, now.rssMB);
    this.#peak.heapUsedMB = Math.max(this.#peak.heapUsedMB, now.heapUsedMB);
  }
}

function usage(): MemoryFigures {
  const now: Usage = process.memoryUsage();
  return { rssMB: now.rss / MB, heapUsedMB: now.heapUsed / MB };
}

/** Resets the kernel's RSS high-water mark to the current RSS (`5` to clear_refs, Linux 4.0+). */
function resetHighWaterMark(): boolean {
  try {
    fs.writeFileSync(CLEAR_REFS, '5');
    return highWaterMarkMB() !== undefined;
  } catch {
    return false;
  }
}

function highWaterMarkMB(): number | undefined {
  try {
    const kB = /^VmHWM:\s+(\d+) kB$/m.exec(fs.readFileSync(STATUS, 'utf8'))?.[1];
    return kB === undefined ? undefined : Number(kB) / 1024;
  } catch {
    return undefined;
  }
}
