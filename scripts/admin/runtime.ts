// Opens the service's runtime for one CLI command, with a logger on stderr: stdout carries
// only the command's output, so `--json` output stays parseable.
import { pino } from 'pino';
import { openRuntime, type Runtime } from '../../server/boot.ts';
import { loadConfig } from '../../server/config.ts';
import type { SchemaRegistry } from '../../server/schemas/registry.ts';

export async function withRuntime<T>(schemas: SchemaRegistry, work: (runtime: Runtime) => Promise<T>): Promise<T> {
  const config = loadConfig(process.env);
  // 'warn': start-up chatter (database ready, provisioning) is noise for a one-shot command.
  // Synchronous writes, so nothing is lost when the process exits.
  const logger = pino({ level: 'warn', base: { service: 'catalog-admin' }, timestamp: pino.stdTimeFunctions.isoTime }, pino.destination({ dest: 2, sync: true }));
  const runtime = await openRuntime(config, logger, schemas);
  try {
    return await work(runtime);
  } finally {
    await runtime.close();
  }
}
