// Process entry: configuration, database, HTTP server, and a graceful shutdown on SIGTERM or
// SIGINT within SHUTDOWN_TIMEOUT_MS (stop accepting, finish in-flight requests, close the
// database, exit 0; a second signal exits at once, the embedded database killed).
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { createApp } from './app.ts';
import { metricsApp } from './http/metrics.ts';
import type { Metrics } from './http/prometheus.ts';
import { openRuntime, type Runtime } from './boot.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createLogger } from './logger.ts';
import { createDemoIfEmpty, demoBanner } from './tenancy/first-run.ts';
import { createHttpServer, type HttpServer } from './http/server.ts';
import { onSupervisorGone, tellListening } from './supervised.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, config.logFormat);
  const runtime = await openRuntime(config, logger);
  const app = createApp({ ...runtime, logger });
  // Finishes deletes and removes copies a crashed instance left behind, now and periodically.
  runtime.versionManager.startSweeper();
  // Delivers change events, those a crashed instance left undelivered included.
  await runtime.events.createIndexes();
  runtime.events.worker.start();
  // Lints owed when the last process stopped run now, behind the start (server/lint/lints.ts).
  const resumed = await runtime.lints.resume();
  if (resumed > 0) logger.info({ lints: resumed }, 'pending lints taken up');
  // Score cards a stop left pending are made again behind the start, by the service process only
  // (not by the admin CLI or a benchmark sharing boot.ts).
  void runtime.scorer.resume().catch((error: unknown) => logger.warn({ error: String(error) }, 'scores: the pending score cards could not be read; the next write to each service makes its card'));
  // Never with MONGODB_URI: an operator's database gets no demo project and no unasked-for key.
  const demo = config.mongodbUri === undefined ? await createDemoIfEmpty(runtime.tenancy) : null;
  const http = createHttpServer(app);
  const server = http.server.listen(config.port, config.host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  // Stops gracefully from here on, before anyone is told it listens: a SIGTERM sent on that news
  // found no handler yet and killed the service outright (start.ts then reported exit 1).
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) {
      // A second signal: stop now, and take the embedded database down with us, so that a new
      // start does not meet it still running (or attach to it while it dies).
      logger.warn({ signal }, 'second signal: exiting now, the embedded database killed');
      runtime.databaseServer.kill?.();
      process.exit(1);
    }
    stopping = true;
    void stop(http, runtime, logger, signal).then(() => process.exit(0), (error: unknown) => {
      logger.error({ err: error }, 'shutdown failed');
      runtime.databaseServer.kill?.();
      process.exit(1);
    });
  };
  process.on('SIGTERM', shutdown).on('SIGINT', shutdown);
  // Under `npm start` (start.ts): stop with the supervisor.
  onSupervisorGone(() => shutdown('supervisor gone'));

  // Under `npm start` (start.ts): which database to see stopped should we crash.
  await tellListening(config.mongodbUri === undefined ? config.dataDir : undefined);
  logger.info({ url: baseUrl, database: runtime.database.server.label }, 'catalog service listening');
  const metrics = app.locals['metrics'] as Metrics | undefined;
  if (metrics && config.metrics?.port !== undefined) {
    const metricsServer = metricsApp(metrics).listen(config.metrics.port, config.host);
    await once(metricsServer, 'listening');
    // It holds no request worth finishing: it closes with the process.
    metricsServer.unref();
    logger.info({ port: (metricsServer.address() as AddressInfo).port }, 'metrics listening');
  }

  // To the terminal as plain text, never through the logger: stdout is the JSON log stream when
  // it is not a terminal, and a credential must never reach a log.
  if (demo) process.stderr.write(`${demoBanner(demo, baseUrl)}\n`);
}

/**
 * Within SHUTDOWN_TIMEOUT_MS whatever happens: requests in flight get three quarters of it; those
 * still unanswered then are answered 503 with Retry-After (an export or import that needs longer
 * is not cut off with an empty reply; its client retries against an instance that is up), and the
 * remaining connections closed (whole-version work whose client has gone ends with its calls,
 * server/pipeline/deadline.ts); the database calls still running are ended, the client closed and
 * the embedded database stopped in what is left; past it, the embedded database is killed.
 */
async function stop({ server, refuseUnanswered }: HttpServer, runtime: Runtime, logger: Logger, signal: string): Promise<void> {
  const boundMs = runtime.config.shutdownTimeoutMs;
  logger.info({ signal }, 'shutting down: finishing in-flight requests');
  const closed = new Promise((resolve) => server.close(resolve));
  // close() drops only the keep-alive connections idle at this moment; a connection whose
  // request finishes later would hold it open until the keep-alive timeout, so keep sweeping.
  const sweep = setInterval(() => server.closeIdleConnections(), 50);
  const requestsEnd = setTimeout(() => {
    logger.warn('shutdown timeout: answering the requests still in flight 503, closing the remaining connections');
    // Written within what is left of the bound; whatever has not gone out by then is closed with the rest.
    void Promise.race([refuseUnanswered(), new Promise((resolve) => setTimeout(resolve, Math.floor(boundMs * 0.1)))])
      .then(() => server.closeAllConnections());
  }, Math.floor(boundMs * 0.75));
  let outOfTime: NodeJS.Timeout | undefined;
  const deadline = new Promise<'out of time'>((resolve) => {
    outOfTime = setTimeout(() => resolve('out of time'), boundMs);
  });
  try {
    const ended = await Promise.race([closed.then(() => runtime.close()), deadline]);
    if (ended === 'out of time') {
      logger.warn(`shutdown timeout: the database did not close within SHUTDOWN_TIMEOUT_MS (${boundMs} ms); killing the embedded database`);
      runtime.databaseServer.kill?.();
    }
  } finally {
    clearInterval(sweep);
    clearTimeout(requestsEnd);
    clearTimeout(outOfTime);
  }
  logger.info('stopped');
}

main().catch((error: unknown) => {
  // A configuration or start-up problem is one clear line, not a stack.
  const message = error instanceof ConfigError ? `configuration error: ${error.message}` : `cannot start: ${(error as Error).message ?? error}`;
  process.stderr.write(`${message}\n`);
  process.exit(1);
});
