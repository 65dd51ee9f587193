// Process entry: configuration, database, HTTP server, and a graceful shutdown on SIGTERM or
// SIGINT (stop accepting, finish in-flight requests, close the database, exit 0).
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { createApp } from './app.ts';
import { metricsApp } from './http/metrics.ts';
import type { Metrics } from './observability/metrics.ts';
import { openRuntime, type Runtime } from './boot.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createLogger } from './logger.ts';
import { createDemoIfEmpty, demoBanner } from './tenancy/first-run.ts';
import { createHttpServer } from './http/server.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, config.logFormat);
  const runtime = await openRuntime(config, logger);
  const app = createApp({ ...runtime, logger });
  // Finishes deletes and removes copies a crashed instance left behind, now and periodically.
  runtime.versionManager.startSweeper();
  // Never with MONGODB_URI: an operator's database gets no demo project and no unasked-for key.
  const demo = config.mongodbUri === undefined ? await createDemoIfEmpty(runtime.tenancy) : null;
  const server = createHttpServer(app).listen(config.port, config.host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  logger.info({ url: baseUrl, database: runtime.database.server.label }, 'catalog service listening');
  const metrics = app.locals['metrics'] as Metrics | undefined;
  if (metrics && config.metrics?.port !== undefined) {
    const metricsServer = metricsApp(metrics).listen(config.metrics.port, config.host);
    await once(metricsServer, 'listening');
    // It holds no request worth finishing: it closes with the process.
    metricsServer.unref();
    logger.info({ port: (metricsServer.address() as AddressInfo).port }, 'metrics listening');
  }

  if (demo) process.stdout.write(`${demoBanner(demo, baseUrl)}\n`);

  const shutdown = (signal: string) => {
    process.removeAllListeners('SIGTERM').removeAllListeners('SIGINT');
    void stop(server, runtime, logger, signal).then(() => process.exit(0), (error: unknown) => {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    });
  };
  process.once('SIGTERM', shutdown).once('SIGINT', shutdown);
}

async function stop(server: Server, runtime: Runtime, logger: Logger, signal: string): Promise<void> {
  logger.info({ signal }, 'shutting down: finishing in-flight requests');
  const closed = new Promise((resolve) => server.close(resolve));
  // close() drops only the keep-alive connections idle at this moment; a connection whose
  // request finishes later would hold it open until the keep-alive timeout, so keep sweeping.
  const sweep = setInterval(() => server.closeIdleConnections(), 50);
  const deadline = setTimeout(() => {
    logger.warn('shutdown timeout: closing the remaining connections');
    server.closeAllConnections();
  }, runtime.config.shutdownTimeoutMs);
  await closed;
  clearInterval(sweep);
  clearTimeout(deadline);
  await runtime.close();
  logger.info('stopped');
}

main().catch((error: unknown) => {
  // A configuration or start-up problem is one clear line, not a stack.
  const message = error instanceof ConfigError ? `configuration error: ${error.message}` : `cannot start: ${(error as Error).message ?? error}`;
  process.stderr.write(`${message}\n`);
  process.exit(1);
});
