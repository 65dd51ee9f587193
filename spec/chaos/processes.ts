// The chaos run's processes: the service (`node server/index.ts`, as `npm start` runs it) on fixed
// ports and a data directory kept across restarts, and the embedded FerretDB it starts.
import fs from 'node:fs';
import { freePort } from '../../server/database/provision.ts';
import { spawnService, type ServiceProcess } from '../support/process.ts';

export { freePort };

export interface ServiceSetup {
  port: number;
  databasePort: number;
  dataDir: string;
}

export function startCatalog(setup: ServiceSetup): Promise<ServiceProcess> {
  return spawnService({
    PORT: String(setup.port),
    EMBEDDED_DB_PORT: String(setup.databasePort),
    EMBEDDED_DB: 'ferretdb',
    DATA_DIR: setup.dataDir,
    // Chaos drives one credential as fast as it can: that is the load, not abuse.
    RATE_LIMIT: 'off',
    LOG_FORMAT: 'json',
  });
}

/**
 * The pid of the FerretDB serving `port` (the binary itself, not the shell wrapper around it,
 * whose command line carries the same arguments), or undefined when none runs.
 */
export function databasePid(port: number): number | undefined {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let argv: string[];
    try {
      argv = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    if (/ferretdb$/.test(argv[0] ?? '') && argv.includes(`--listen-addr=127.0.0.1:${port}`)) return Number(entry);
  }
  return undefined;
}
