// An incoming description's validation, on a thread of its own, while this thread upgrades and
// dereferences it: validating Microsoft Graph beta's 47 MB costs 2.8 s and needs nothing the
// upgrade makes, so on two cores its preparation costs the longer of the two instead of their
// sum. The document goes over serialised (0.25 s here; the worker spends the 0.7 s of reading it
// back). One thread, started on first use and let go of when idle (piscina), so an idle service
// and a finished test run hold none.
import v8 from 'node:v8';
import { Piscina } from 'piscina';
import findingsOnSerialised, { type Findings } from './validate-worker.ts';

export type { Findings };

let pool: Piscina<Uint8Array, Findings> | undefined;

/** The validator's findings on `document`, as it is now: a later change to it is not seen. */
export function validateOffThread(document: unknown): Promise<Findings> {
  const serialised = v8.serialize(document);
  pool ??= new Piscina({ filename: new URL('./validate-worker.ts', import.meta.url).href, minThreads: 0, maxThreads: 1, idleTimeout: 30_000 });
  // A thread that failed (out of memory, killed) is no finding on the document: judged here instead.
  return pool.run(serialised).catch(() => findingsOnSerialised(serialised));
}
