// The messages between the benchmark (parent, load generator) and its servers process (child),
// over Node's IPC channel. Every request carries a `seq`; the child answers with the same `seq`.
import type { PeakMemory } from './memory.ts';

/** The three servers the child runs, each on its own loopback port. */
export type ServerName = 'service' | 'bareMemory' | 'bareDb';

export interface StartRequest {
  type: 'start';
  seq: number;
  /** MongoDB URI including the database name. */
  uri: string;
  jwtSecret: string;
}

/** Store these Path bodies in the benchmark's version, then capture what the service answers for them. */
export interface SeedRequest {
  type: 'seed';
  seq: number;
  bodies: Record<string, unknown>[];
}

export interface StatsRequest {
  type: 'stats';
  seq: number;
  /** Run a full garbage collection first (the process runs with --expose-gc), so heapUsed is what is live. */
  gc?: boolean;
}

/** Start or stop the V8 CPU profiler in the servers process (node:inspector). */
export interface ProfileRequest {
  type: 'profile';
  seq: number;
  action: 'start' | 'stop';
  /** With `stop`: where to write the .cpuprofile. */
  file?: string;
}

/**
 * Start or stop sampling the servers process's peak memory (memory.ts), around one piece of
 * work the parent asks of the service over HTTP (an import, an export, a copy).
 */
export interface MemoryRequest {
  type: 'memory';
  seq: number;
  action: 'start' | 'stop';
}

export interface ShutdownRequest {
  type: 'shutdown';
  seq: number;
  /** Drop the benchmark's database before closing (a MONGODB_URI the user gave us). */
  dropDatabase: boolean;
}

export type ParentMessage = StartRequest | SeedRequest | StatsRequest | ProfileRequest | MemoryRequest | ShutdownRequest;

export interface Ready {
  type: 'ready';
  seq: number;
  ports: Record<ServerName, number>;
  /** `runtime.database.server`. */
  server: { kind: 'mongodb' | 'ferretdb'; label: string };
  project: { id: string; slug: string };
  version: { id: string; type: string; slug: string };
  /** A read-write project API key (the usual credential). */
  apiKey: string;
  /** A personal access token (JWT) for the same project: authentication without a database lookup. */
  token: string;
}

export interface Seeded {
  type: 'seeded';
  seq: number;
  /** Ids of the stored records, in the order of the bodies. */
  ids: string[];
  /** Records the in-memory server holds. */
  records: number;
}

export interface Stats {
  type: 'stats';
  seq: number;
  /** process.cpuUsage(), microseconds since the child started. */
  cpu: { user: number; system: number };
  memory: NodeJS.MemoryUsage;
  /** Requests received and not yet answered, over the three servers. */
  inFlight: number;
}

export interface Profiled {
  type: 'profiled';
  seq: number;
  /** The file written by `stop`. */
  file?: string;
}

export interface Memory {
  type: 'memory';
  seq: number;
  /** With `stop`: the peaks since `start`. */
  peak?: PeakMemory;
}

export interface Closed {
  type: 'closed';
  seq: number;
}

export interface Failed {
  type: 'failed';
  /** The request that failed, or -1 for an error outside any request. */
  seq: number;
  message: string;
}

export type ChildMessage = Ready | Seeded | Stats | Profiled | Memory | Closed | Failed;
