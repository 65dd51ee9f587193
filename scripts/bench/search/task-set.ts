// What an evaluation task is and how task files are written: an ask, the service it is about,
// the operationId(s) that answer it, and whether it is phrased by intent (what the caller wants
// done, in their words) or plainly (close to the operation's own words). Task files are written
// before any ranking is run on them and are not edited after (docs/benchmark.md, "Search").
export type Phrasing = 'intent' | 'plain';
export type Half = 'tuning' | 'held-out';

export interface Task { service: string; ask: string; expected: readonly string[]; phrasing: Phrasing }

/** A description the tasks are asked of: imported under `slug`; `file` is relative to node_modules. */
export interface Source { slug: string; title: string; file: string }

/** One half of the evaluation: its descriptions and the tasks asked of them. */
export interface TaskSet { half: Half; sources: readonly Source[]; tasks: readonly Task[] }

type Entry = readonly [Phrasing, string, ...string[]];

/** An ask phrased by what the caller wants done, with the operationId(s) that answer it. */
export const intent = (ask: string, ...expected: [string, ...string[]]): Entry => ['intent', ask, ...expected];

/** An ask phrased close to the operation's own words. */
export const plain = (ask: string, ...expected: [string, ...string[]]): Entry => ['plain', ask, ...expected];

export const on = (service: string, entries: readonly Entry[]): Task[] =>
  entries.map(([phrasing, ask, ...expected]) => ({ service, ask, expected, phrasing }));
