// The one-shot scenarios: an import of a real OpenAPI description (dry run first), the export
// of the service it made, and a copy of the version holding it, each sent once over HTTP to the
// service in the servers process and reported with its wall time, records per second, the
// servers process's CPU time and its peak memory (memory.ts, sampled in that process). They run
// after the request scenarios, in a version of their own: on FerretDB every query reads whole
// collections, so the imported records would slow every request scenario down.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { repoRoot } from '../../server/config.ts';
import type { PeakMemory } from './memory.ts';
import { readSpec, type DescriptionFile } from './descriptions.ts';
import type { Ready } from './protocol.ts';

export const ONE_SHOTS = [
  { id: 'import-dry', title: 'Import dry run (validate, upgrade, dereference, plan; nothing written)', request: 'POST /v2/catalog/versions/{versionId}/imports/openapi?dryRun=true' },
  { id: 'import', title: 'Import into an empty version', request: 'POST /v2/catalog/versions/{versionId}/imports/openapi' },
  { id: 'export', title: 'Export the imported service as OpenAPI 3.1 JSON', request: 'GET /v2/catalog/versions/{versionId}/services/{id}/openapi' },
  { id: 'copy', title: 'Copy the version holding the import', request: 'POST /v2/catalog/projects/{slug}/versions {copyFrom}' },
  // Opt-in (--scenario changes,changes-dry): each imports two GitHub releases first, minutes of work.
  { id: 'changes', title: 'Changes between GitHub 18.x and 23.x imported into two versions', request: 'GET /v2/catalog/versions/{versionId}/changes?against={versionId}' },
  { id: 'changes-dry', title: 'Dry run of GitHub 23.x against the version holding 18.x, with its changes', request: 'POST /v2/catalog/versions/{versionId}/imports/openapi?dryRun=true' },
] as const;

/** Scenarios a default run leaves out. */
export const OPT_IN: readonly string[] = ['changes', 'changes-dry'];
const GITHUB = (major: number) => path.join(repoRoot, 'node_modules', `octokit-openapi-${major}`, 'generated', 'api.github.com.json');

export type OneShotId = (typeof ONE_SHOTS)[number]['id'];

export interface OneShotResult {
  id: OneShotId;
  title: string;
  request: string;
  description: DescriptionFile;
  status: number;
  /** Wall time as the client sees it (the import's includes sending the body over loopback). */
  wallS: number;
  /** Records the document maps to (import, dry run), or that were read (export) or copied (copy); changes found (changes). */
  records: number;
  recordsPerS: number;
  /** The body sent (import) or received (export). */
  bytes?: number;
  warnings?: number;
  /** CPU time of the servers process (all threads, user + system) over the scenario. */
  cpuS: number;
  memory: PeakMemory;
}

/** What the parent needs of the servers process: CPU time and the memory sampler. */
export interface Worker {
  cpuS(): Promise<number>;
  memory(action: 'start' | 'stop'): Promise<PeakMemory | undefined>;
}

interface Answer { status: number; bytes: number; text: string }

type Counted = Pick<OneShotResult, 'records' | 'bytes' | 'warnings'>;

interface ImportBody { service: { id: string }; records: Record<string, { created: number; updated: number; unchanged: number }>; warnings: unknown[] }

/**
 * Runs the selected one-shot scenarios on `description`. An export or a copy needs the import,
 * so it is made (and reported only if selected). A scenario that fails is a problem, and the
 * ones that depend on it are skipped.
 */
export async function runOneShots(
  selected: readonly string[], description: DescriptionFile, ready: Ready, worker: Worker,
  progress: (line: string) => void, signal: AbortSignal,
): Promise<{ results: OneShotResult[]; problems: string[] }> {
  const results: OneShotResult[] = [];
  const problems: string[] = [];
  const origin = `http://127.0.0.1:${ready.ports.service}`;
  const headers = { Authorization: `Bearer ${ready.apiKey}` };
  const versions = `/v2/catalog/projects/${ready.project.slug}/versions`;
  const wants = (id: OneShotId) => selected.includes(id);
  const titled = (id: OneShotId) => ONE_SHOTS.find((s) => s.id === id)!;

  const measure = async (id: OneShotId, work: () => Promise<Answer>, expect: number[], count: (answer: Answer) => Counted, on = description): Promise<Answer | undefined> => {
    progress(`${id}: ${on.id} (${(on.bytes / 2 ** 20).toFixed(1)} MB)${wants(id) ? '' : ', needed by a later scenario'}`);
    const cpuBefore = await worker.cpuS();
    await worker.memory('start');
    const started = performance.now();
    let answer: Answer;
    try {
      answer = await work();
    } catch (error) {
      await worker.memory('stop');
      throw error;
    }
    const wallS = (performance.now() - started) / 1000;
    const memory = (await worker.memory('stop'))!;
    const cpuS = (await worker.cpuS()) - cpuBefore;
    if (!expect.includes(answer.status)) {
      problems.push(`${id}: answered ${answer.status} after ${wallS.toFixed(1)} s: ${answer.text.slice(0, 500)}`);
      return undefined;
    }
    const counted = count(answer);
    const result: OneShotResult = { ...titled(id), description: on, status: answer.status, wallS, ...counted, recordsPerS: counted.records / wallS, cpuS, memory };
    progress(`${id}: ${answer.status} in ${wallS.toFixed(1)} s, ${counted.records} records (${result.recordsPerS.toFixed(0)}/s), peak rss ${memory.peak.rssMB.toFixed(0)} MB, heap ${memory.peak.heapUsedMB.toFixed(0)} MB`);
    if (wants(id)) results.push(result);
    return answer;
  };

  if (wants('changes') || wants('changes-dry')) {
    const problem = await changeShots();
    if (problem) problems.push(problem);
  }
  if (!ONE_SHOTS.some((s) => !OPT_IN.includes(s.id) && wants(s.id))) return { results, problems };

  /** Two releases of GitHub's API in two versions, then the changes between them and a dry run of the newer against the older. */
  async function changeShots(): Promise<string | undefined> {
    const [older, newer] = [fs.readFileSync(GITHUB(18)), fs.readFileSync(GITHUB(23))];
    const pair = { id: 'api.github.com @octokit/openapi 18 → 23', bytes: older.length + newer.length };
    const ids: string[] = [];
    for (const [slug, body] of [['github-18', older], ['github-23', newer]] as const) {
      const made = await send(signal, origin, 'POST', versions, headers, JSON.stringify({ type: 'branch', slug }), 'application/json');
      if (made.status !== 201) return `changes: creating version ${slug} answered ${made.status}`;
      const id = (JSON.parse(made.text) as { id: string }).id;
      progress(`changes: importing ${slug} (${(body.length / 2 ** 20).toFixed(1)} MB)`);
      const imported = await send(signal, origin, 'POST', `/v2/catalog/versions/${id}/imports/openapi?service=github`, headers, body, 'application/json');
      if (imported.status !== 201) return `changes: importing ${slug} answered ${imported.status}: ${imported.text.slice(0, 300)}`;
      ids.push(id);
    }
    const changed = (answer: Answer): Counted => {
      const report = JSON.parse(answer.text) as { summary?: { breaking: number; nonBreaking: number }; changes?: { summary: { breaking: number; nonBreaking: number } } };
      const summary = report.summary ?? report.changes!.summary;
      progress(`changes: ${summary.breaking} breaking, ${summary.nonBreaking} non-breaking`);
      return { records: summary.breaking + summary.nonBreaking, bytes: answer.bytes };
    };
    if (wants('changes')) {
      await measure('changes', () => send(signal, origin, 'GET', `/v2/catalog/versions/${ids[1]}/changes?against=${ids[0]}`, headers), [200], changed, pair);
    }
    if (wants('changes-dry')) {
      await measure('changes-dry', () => send(signal, origin, 'POST', `/v2/catalog/versions/${ids[0]}/imports/openapi?service=github&dryRun=true`, headers, newer, 'application/json'), [200], changed, pair);
    }
    return undefined;
  }

  const created = await send(signal, origin, 'POST', versions, headers, JSON.stringify({ type: 'branch', slug: 'import' }), 'application/json');
  if (created.status !== 201) return { results, problems: [`one-shot scenarios: creating the import's version answered ${created.status}: ${created.text.slice(0, 300)}`] };
  const version = (JSON.parse(created.text) as { id: string }).id;
  const importPath = `/v2/catalog/versions/${version}/imports/openapi?service=bench-import`;
  const body = readSpec(description.id);
  const mapped = (answer: Answer) => {
    const report = JSON.parse(answer.text) as ImportBody;
    const records = Object.values(report.records).reduce((sum, c) => sum + c.created + c.updated + c.unchanged, 0);
    return { records, bytes: body.length, warnings: report.warnings.length };
  };

  if (wants('import-dry')) await measure('import-dry', () => send(signal, origin, 'POST', `${importPath}&dryRun=true`, headers, body, 'application/json'), [200], mapped);
  if (!ONE_SHOTS.some((s) => s.id !== 'import-dry' && !OPT_IN.includes(s.id) && wants(s.id))) return { results, problems };

  const imported = await measure('import', () => send(signal, origin, 'POST', importPath, headers, body, 'application/json'), [200, 201], mapped);
  if (!imported) return { results, problems };
  const records = mapped(imported).records;
  const serviceId = (JSON.parse(imported.text) as ImportBody).service.id;

  if (wants('export')) {
    await measure('export', () => send(signal, origin, 'GET', `/v2/catalog/versions/${version}/services/${serviceId}/openapi`, headers), [200], (answer) => ({ records, bytes: answer.bytes }));
  }
  if (wants('copy')) {
    await measure('copy', () => send(signal, origin, 'POST', versions, headers, JSON.stringify({ type: 'branch', slug: 'import-copy', copyFrom: version }), 'application/json'), [201], () => ({ records }));
  }
  return { results, problems };
}

/**
 * One request without client-side timeouts (fetch gives up on headers after 300 s, and the
 * largest import takes longer than that on a busy machine).
 */
export function send(signal: AbortSignal, origin: string, method: string, path: string, headers: Record<string, string>, body?: string | Buffer, type?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${origin}${path}`, {
      method,
      signal,
      headers: { ...headers, ...(type && { 'Content-Type': type }), ...(body !== undefined && { 'Content-Length': Buffer.byteLength(body) }) },
    }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const all = Buffer.concat(chunks);
        resolve({ status: response.statusCode ?? 0, bytes: all.length, text: all.toString('utf8') });
      });
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}
