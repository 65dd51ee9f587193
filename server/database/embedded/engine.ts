// What provisioning and each embedded engine share: the options, the server handed back, the per-engine data dirs.
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';

export type EmbeddedEngine = 'auto' | 'mongodb' | 'ferretdb';

export interface DatabaseServer {
  uri: string;
  kind: 'external' | 'mongodb' | 'ferretdb';
  reused: boolean;
  stop(): Promise<void>;
  /** Supervised embedded servers only: how often it was restarted after dying. */
  readonly restarts?: number;
  /** Supervised embedded servers only: the process to signal to kill the database (FerretDB's wrapper, whose child it is; mongod itself). */
  readonly pid?: number | undefined;
  /** Supervised embedded servers only: called after each restart with the count so far (for metrics). */
  onRestart?(listener: (count: number) => void): void;
  /**
   * Supervised embedded servers only: from now on, `readable` is called every second, bounded by
   * `timeoutMs`; a server that fails it three times in a row, with no answer for 10 s, is killed and restarted (a stalled engine still answers pings).
   */
  watchReads?(readable: (timeoutMs: number) => Promise<void>, timeoutMs: number): void;
  /** Supervised embedded servers only: ends the server process at once (SIGKILL), for a shutdown out of time or a second signal. */
  kill?(): void;
}

export interface ProvisionOptions {
  uri?: string;
  dataDir: string;
  port: number;
  engine: EmbeddedEngine;
  cacheDir: string;
  /** mongodb-memory-server's download source (config.mongodDownload); none given: its default. */
  mongodDownload?: { url?: string | undefined; mirror?: string | undefined };
  log: (message: string) => void;
}

/** The engines keep separate data; say so when the one not chosen holds some. */
export async function noteOtherEngineData(options: ProvisionOptions, other: 'mongodb' | 'ferretdb'): Promise<void> {
  const dir = path.join(options.dataDir, other);
  const entries = await fsp.readdir(dir).catch(() => []);
  if (entries.length > 0) options.log(`database: note: ${dir} holds data of the other engine (${other}); it is not used now`);
}
