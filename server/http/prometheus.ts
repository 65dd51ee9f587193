// Prometheus metrics (prom-client), one registry per app: requests by route template, method and
// status; database command latency (the driver's command monitoring); the connection pool;
// process metrics; restarts of the embedded database.
import type { RequestHandler } from 'express';
import type { MongoClient } from 'mongodb';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { routeOf } from './request-log.ts';
import { sendText } from './respond.ts';

/**
 * What metrics read from the embedded database server: how often it was restarted. The
 * supervision of the embedded server (supervise.ts) keeps this count; a server that does
 * not keep one (an external MongoDB) counts as never restarted.
 */
export interface RestartCounting {
  readonly restarts?: number;
}

// Latency buckets in seconds: a catalog request is milliseconds; timeouts are seconds.
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'route' | 'method' | 'status'>;
  private readonly requestDuration: Histogram<'route' | 'method' | 'status'>;

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    const labelNames = ['route', 'method', 'status'] as const;
    this.requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests answered, by route template, method and status', labelNames, registers: [this.registry] });
    this.requestDuration = new Histogram({
      name: 'http_request_duration_seconds', help: 'Time from request to the end of the response, by route template, method and status',
      labelNames, buckets: BUCKETS, registers: [this.registry],
    });
  }

  /** Counts and times every response; put it before the routes. */
  readonly track: RequestHandler = (req, res, next) => {
    const end = this.requestDuration.startTimer();
    res.once('finish', () => {
      const labels = { route: routeOf(req), method: req.method, status: String(res.statusCode) };
      this.requests.inc(labels);
      end(labels);
    });
    next();
  };

  /** Command latency and pool state of a client created with `monitorCommands: true`. */
  watchDatabase(client: MongoClient): void {
    const registers = [this.registry];
    const commands = new Histogram({
      name: 'mongodb_command_duration_seconds', help: 'Database command latency, by command name and outcome',
      labelNames: ['command', 'outcome'], buckets: BUCKETS, registers,
    });
    client.on('commandSucceeded', (event) => commands.observe({ command: event.commandName, outcome: 'ok' }, event.duration / 1000));
    client.on('commandFailed', (event) => commands.observe({ command: event.commandName, outcome: 'failed' }, event.duration / 1000));

    // Pool sizes are read when collected: the client connected before the metrics existed.
    const pools = () => poolsOf(client);
    new Gauge({
      name: 'mongodb_pool_connections', help: 'Connections of the driver\'s pools, by state', labelNames: ['state'], registers,
      collect() {
        const sum = (read: (pool: PoolCounts) => number) => pools().reduce((total, pool) => total + read(pool), 0);
        this.set({ state: 'open' }, sum((pool) => pool.totalConnectionCount));
        this.set({ state: 'available' }, sum((pool) => pool.availableConnectionCount));
        this.set({ state: 'in_use' }, sum((pool) => pool.currentCheckedOutCount));
        this.set({ state: 'pending' }, sum((pool) => pool.pendingConnectionCount));
      },
    });
    new Gauge({
      name: 'mongodb_pool_wait_queue', help: 'Operations waiting for a connection', registers,
      collect() {
        this.set(pools().reduce((total, pool) => total + pool.waitQueueSize, 0));
      },
    });
    const checkoutFailures = new Counter({ name: 'mongodb_pool_checkout_failures_total', help: 'Failed connection check-outs', registers });
    const cleared = new Counter({ name: 'mongodb_pool_cleared_total', help: 'Times a pool was cleared (its server was marked unknown)', registers });
    client.on('connectionCheckOutFailed', () => checkoutFailures.inc());
    client.on('connectionPoolCleared', () => cleared.inc());
  }

  /** Restarts of the embedded database, read from the server each time metrics are collected. */
  watchDatabaseServer(server: object): void {
    const counting = server as RestartCounting;
    new Counter({
      name: 'catalog_embedded_database_restarts_total', help: 'Times the embedded database server was restarted by the service',
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(typeof counting.restarts === 'number' ? counting.restarts : 0);
      },
    });
  }

  /** GET /metrics: the Prometheus text exposition. */
  readonly expose: RequestHandler = async (_req, res) => {
    sendText(res, 200, this.registry.contentType, await this.registry.metrics());
  };
}

interface PoolCounts {
  totalConnectionCount: number;
  availableConnectionCount: number;
  currentCheckedOutCount: number;
  pendingConnectionCount: number;
  waitQueueSize: number;
}

/**
 * The connection pools of the client's servers. The driver counts them (ConnectionPool's
 * getters) but offers no public way to reach them; if its internals move, the gauges read 0.
 */
function poolsOf(client: MongoClient): PoolCounts[] {
  const topology = (client as unknown as { topology?: { s?: { servers?: Map<string, { pool?: PoolCounts }> } } }).topology;
  return [...(topology?.s?.servers?.values() ?? [])].flatMap((server) => (server.pool ? [server.pool] : []));
}
