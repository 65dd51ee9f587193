// Lints run on a thread of their own (lint-worker.ts), one at a time: Spectral is synchronous
// for long stretches and GitHub's description holds it for tens of seconds. One thread
// (piscina), started on first need, let go of after ten idle minutes, unreferenced so it never
// holds the process open.
import { Piscina } from 'piscina';
import { piecesOf } from '../descriptions/pieces.ts';
import type { JsonObject } from '../json/values.ts';
import type { Finding } from './findings.ts';
import type { LintTask } from './lint-worker.ts';
import type { LintSettings } from './settings.ts';

const IDLE_MS = 10 * 60_000;
let pool: Piscina<LintTask, Finding[]> | undefined;

/** The findings of `document` under `settings`, computed off this thread. */
export async function lintOffThread(document: JsonObject, settings: LintSettings): Promise<Finding[]> {
  pool ??= new Piscina({ filename: new URL('./lint-worker.ts', import.meta.url).href, minThreads: 0, maxThreads: 1, idleTimeout: IDLE_MS });
  return pool.run({ pieces: await piecesOf(document), settings });
}
