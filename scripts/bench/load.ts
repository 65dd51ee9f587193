// One timed burst of load against one server: autocannon drives keep-alive connections, and
// every response's time is recorded here in microseconds (autocannon's own latency histogram
// keeps whole milliseconds, too coarse for sub-millisecond answers).
import { createHistogram, performance } from 'node:perf_hooks';
import autocannon from 'autocannon';

export type Method = 'GET' | 'POST' | 'PATCH';

/** What to send: the path may change per request (e.g. cycling through record ids). */
export interface Target {
  origin: string;
  method: Method;
  path: () => string;
  headers: Record<string, string>;
  /** Called per request: a create needs a new natural key each time. */
  body?: () => string;
  /** The status a successful answer has. */
  expect: number;
}

export interface LoadOptions {
  seconds: number;
  connections: number;
  /**
   * A burst that has not had this many answers after `seconds` goes on until it has, or until
   * `maxSeconds`: slow requests (a list on FerretDB under load) would otherwise yield nothing.
   */
  minResponses?: number;
  maxSeconds?: number;
  signal?: AbortSignal;
}

export interface Burst {
  /** Answers with the expected status. */
  ok: number;
  /** Answers with another status (they are not in the latencies). */
  unexpected: number;
  /** Connection errors and timeouts. */
  errors: number;
  elapsedMs: number;
  /** ok answers per second. */
  rps: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
}

export function burst(target: Target, options: LoadOptions): Promise<Burst> {
  const latencies = createHistogram();
  let ok = 0;
  let unexpected = 0;
  const started = performance.now();
  const minResponses = options.minResponses ?? 0;
  const maxSeconds = Math.max(options.seconds, options.maxSeconds ?? options.seconds);
  let overtime = false;
  let stopped = false;
  return new Promise((resolve, reject) => {
    const instance = autocannon({
      // autocannon ends a run at its next sample tick (default every 1000 ms); this keeps bursts
      // close to their length. Documented, though missing from @types/autocannon.
      ...{ sampleInt: 50 },
      url: target.origin,
      connections: options.connections,
      pipelining: 1,
      duration: maxSeconds,
      timeout: 10,
      requests: [{
        method: target.method,
        path: target.path(),
        headers: target.headers,
        ...(target.body !== undefined && { body: target.body() }),
        setupRequest: (request) => ({ ...request, path: target.path(), ...(target.body !== undefined && { body: target.body() }) }),
      }],
    }, (error: Error | null, result: autocannon.Result) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', stop);
      if (error) {
        reject(error);
        return;
      }
      const elapsedMs = performance.now() - started;
      const us = (value: number) => value / 1000;
      resolve({
        ok,
        unexpected,
        errors: result.errors + result.timeouts,
        elapsedMs,
        rps: ok / (elapsedMs / 1000),
        p50Ms: ok > 0 ? us(latencies.percentile(50)) : NaN,
        p99Ms: ok > 0 ? us(latencies.percentile(99)) : NaN,
        meanMs: ok > 0 ? us(latencies.mean) : NaN,
      });
    });
    instance.on('response', (_client: autocannon.Client, status: number, _bytes: number, responseTimeMs: number) => {
      if (status === target.expect) {
        ok++;
        latencies.record(Math.max(1, Math.round(responseTimeMs * 1000)));
      } else {
        unexpected++;
      }
      if (overtime && ok + unexpected >= minResponses) stop();
    });
    const stop = () => {
      if (stopped) return;
      stopped = true;
      instance.stop();
    };
    const timer = setTimeout(() => {
      if (ok + unexpected >= minResponses) stop();
      else overtime = true;
    }, options.seconds * 1000);
    options.signal?.addEventListener('abort', stop, { once: true });
  });
}
