// The fuzz suite's runner: sends generated requests over real HTTP and checks every answer:
// never a 5xx, every error in the `{error, details?}` shape, and a rejected request changes
// nothing (the fuzzed version's records are compared before and after each rejected write;
// the bystander tenant's records before and after the whole run).
import http from 'node:http';
import type { FuzzRequest } from './requests.ts';

export interface FuzzFailure {
  request: FuzzRequest;
  status: number | undefined;
  problem: string;
  body: string;
}

export interface FuzzReport {
  tried: number;
  /** Requests the HTTP client itself refused to send (not counted as tried). */
  unsendable: number;
  failures: FuzzFailure[];
  /** How many answers of each status. */
  statuses: Record<string, number>;
  /** Milliseconds from sending each tried request to its whole answer. */
  durations: number[];
}

export interface RunOptions {
  /**
   * Senders working through the requests at once (default 1). With more than one, a rejected
   * write cannot be told apart from the others' writes, so only the bystander is compared.
   */
  clients?: number;
  onProgress?: (report: FuzzReport) => void;
}

export interface FuzzTarget {
  baseUrl: string;
  /** The fuzzed version's records, as comparable text. */
  snapshot(): Promise<string>;
  /** The bystander's records, which no request may change. */
  bystanderSnapshot(): Promise<string>;
}

const WRITES = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);
const ANSWER_TIMEOUT_MS = 30_000;

export async function runFuzz(target: FuzzTarget, requests: readonly FuzzRequest[], options: RunOptions = {}): Promise<FuzzReport> {
  const clients = Math.max(1, options.clients ?? 1);
  const report: FuzzReport = { tried: 0, unsendable: 0, failures: [], statuses: {}, durations: [] };
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const bystanderBefore = await target.bystanderSnapshot();
  let before = clients === 1 ? await target.snapshot() : '';
  let next = 0;
  const sender = async (): Promise<void> => {
    while (next < requests.length) {
      const request = requests[next++]!;
      let answer: Answer;
      const started = performance.now();
      try {
        answer = await send(target.baseUrl, request, agent);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code?.startsWith('ERR_') && !(error as Error).message.includes('timed out')) {
          report.unsendable += 1;
          continue;
        }
        report.tried += 1;
        report.failures.push({ request, status: undefined, problem: `no answer: ${(error as Error).message}`, body: '' });
        continue;
      }
      report.durations.push(performance.now() - started);
      report.tried += 1;
      report.statuses[answer.status] = (report.statuses[answer.status] ?? 0) + 1;
      const problem = problemOf(request, answer);
      if (problem) report.failures.push({ request, status: answer.status, problem, body: answer.body.slice(0, 300) });
      if (clients === 1 && WRITES.has(request.method)) {
        const after = await target.snapshot();
        if (answer.status >= 400 && after !== before) {
          report.failures.push({ request, status: answer.status, problem: 'a rejected request changed the version\'s records', body: answer.body.slice(0, 300) });
        }
        before = after;
      }
      if (options.onProgress && report.tried % 500 === 0) options.onProgress(report);
    }
  };
  try {
    await Promise.all(Array.from({ length: clients }, sender));
    if ((await target.bystanderSnapshot()) !== bystanderBefore) {
      report.failures.push({ request: { method: '-', url: '-', headers: {} }, status: undefined, problem: 'the bystander tenant\'s records changed', body: '' });
    }
  } finally {
    agent.destroy();
  }
  return report;
}

interface Answer {
  status: number;
  contentType: string;
  body: string;
}

/** What is wrong with an answer, or undefined when nothing is. */
function problemOf(request: FuzzRequest, answer: Answer): string | undefined {
  if (answer.status >= 500) return `server error ${answer.status}`;
  if (answer.status < 400 || request.method === 'HEAD') return undefined;
  if (!/^application\/json\b/.test(answer.contentType)) return `error answer is not JSON (${answer.contentType || 'no content type'})`;
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return 'error answer is not valid JSON';
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'error answer is not an object';
  const keys = Object.keys(body);
  if (typeof (body as { error?: unknown }).error !== 'string' || keys.some((key) => key !== 'error' && key !== 'details')) {
    return `error answer is not {error, details?}: keys ${keys.join(', ')}`;
  }
  const details = (body as { details?: unknown }).details;
  if (answer.status === 400 && details !== undefined) {
    const wellFormed = Array.isArray(details) && details.every((entry) => typeof entry?.field === 'string' && typeof entry?.message === 'string');
    if (!wellFormed) return 'validation details are not [{field, message}]';
  }
  return undefined;
}

function send(baseUrl: string, request: FuzzRequest, agent: http.Agent): Promise<Answer> {
  const base = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: base.hostname, port: base.port, method: request.method, path: request.url, agent,
      // Framing stays valid (chunked, or a true Content-Length): Node's own parser errors are another matter (bad-requests.spec.ts sends those).
      headers: { ...request.headers, ...(request.body === undefined || request.headers['transfer-encoding'] ? {} : { 'content-length': String(Buffer.byteLength(request.body)) }) },
      timeout: ANSWER_TIMEOUT_MS,
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`timed out after ${ANSWER_TIMEOUT_MS} ms`)));
    req.on('error', reject);
    if (request.body !== undefined) req.write(request.body);
    req.end();
  });
}

/** The report as the lines `npm run fuzz` prints. */
export function describeReport(report: FuzzReport, seed: number): string {
  const statuses = Object.entries(report.statuses).sort(([a], [b]) => Number(a) - Number(b)).map(([status, n]) => `${status}: ${n}`).join(', ');
  const serverErrors = Object.entries(report.statuses).filter(([status]) => Number(status) >= 500).reduce((sum, [, n]) => sum + n, 0);
  const sorted = [...report.durations].sort((a, b) => a - b);
  const at = (share: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!.toFixed(0) : '-');
  const lines = [
    `fuzz: seed ${seed}, requests tried ${report.tried}, failures ${report.failures.length}` + (report.unsendable ? `, unsendable ${report.unsendable}` : ''),
    `statuses: ${statuses}; 5xx: ${serverErrors}`,
    `answer times: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms`,
    ...report.failures.slice(0, 20).map((failure) =>
      `FAIL ${failure.problem}: ${failure.request.method} ${failure.request.url} ${JSON.stringify(failure.request.headers)} body=${JSON.stringify(failure.request.body?.slice(0, 200))} → ${failure.status} ${failure.body}`),
  ];
  if (report.failures.length > 20) lines.push(`… and ${report.failures.length - 20} more`);
  return lines.join('\n');
}
