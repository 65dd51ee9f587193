// Long synchronous work on the request's thread cut into slices: `pause()` after each step
// yields to the event loop (setImmediate: pending I/O first) once the slice has run its time,
// so other tenants' requests are looked at between slices while an import of a large
// description plans. A few milliseconds each: long enough that the pauses cost little.
import { setImmediate as nextTurn } from 'node:timers/promises';

const SLICE_MS = 10;

export class Slices {
  #since = performance.now();

  /** Yields when this slice has run SLICE_MS or more; else nothing (resolved at once). */
  async pause(): Promise<void> {
    if (performance.now() - this.#since < SLICE_MS) return;
    await nextTurn();
    this.#since = performance.now();
  }
}
