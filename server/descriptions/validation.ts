// An incoming description's validation, on a thread of its own when it is large, while this
// thread upgrades and dereferences it: validating Microsoft Graph beta's 47 MB costs about 3 s
// and needs nothing the upgrade makes, so on two cores its preparation costs the longer of the
// two instead of their sum (measured: 4.8 s against 6.4 to 7.3 s). The document goes over
// serialised (0.25 s here; the thread spends the 0.7 s of reading it back). One thread
// (piscina), started on first need and let go of after ten idle minutes, so that a CI job's
// imports find it ready (a new one costs 0.3 s to start, and its validator runs slower until
// warm); unreferenced, so it never holds the process open. A small description is validated
// here: its validation costs less than the handing over.
import v8 from 'node:v8';
import { Piscina } from 'piscina';
import findingsOnSerialised, { type Findings } from './validate-worker.ts';

export type { Findings };

/** Serialised size from which a description is validated on the thread (Giphy: 30 KB; Stripe: 6 MB; Graph beta: 45 MB). */
const OFF_THREAD_BYTES = 4_000_000;
const IDLE_MS = 10 * 60_000;

let pool: Piscina<Uint8Array, Findings> | undefined;

/** The validator's findings on `document` as it is now (a later change to it is not seen). `offThreadFrom`: for tests. */
export function validateAside(document: unknown, { offThreadFrom = OFF_THREAD_BYTES } = {}): Promise<Findings> {
  const serialised = v8.serialize(document);
  if (serialised.length < offThreadFrom) return findingsOnSerialised(serialised);
  pool ??= new Piscina({ filename: new URL('./validate-worker.ts', import.meta.url).href, minThreads: 0, maxThreads: 1, idleTimeout: IDLE_MS });
  // A thread that failed (out of memory, killed) is no finding on the document: judged here instead.
  return pool.run(serialised).catch(() => findingsOnSerialised(serialised));
}
