// The push command's one call: the bundled document posted to the import of a version named by
// project, type and slug (the interface's family P), and the answer read as a push outcome.
import type { PushOutcome } from './output.ts';

/** The catalog did not answer, or answered that it cannot serve now (429, 5xx). */
export class Unreachable extends Error {}

export interface ImportCall {
  project: string;
  versionType: string;
  versionSlug: string;
  document: unknown;
  service?: string;
  dryRun: boolean;
  failOn?: 'breaking' | 'lint-error';
  minScore?: number;
}

type Answer = Omit<PushOutcome, 'files' | 'place' | 'dryRun'>;
type ErrorBody = { error?: string; details?: { field?: string; message?: string }[] };

const TIMEOUT_MS = 15 * 60_000;

export async function postImport(catalog: { url: string; token: string }, call: ImportCall): Promise<Answer> {
  const address = new URL(`${catalog.url}/v2/catalog/projects/${[call.project, call.versionType, call.versionSlug].map(encodeURIComponent).join('/')}/imports/openapi`);
  if (call.service !== undefined) address.searchParams.set('service', call.service);
  if (call.dryRun) address.searchParams.set('dryRun', 'true');
  if (call.failOn) address.searchParams.set('failOn', call.failOn);
  if (call.minScore !== undefined) address.searchParams.set('minScore', String(call.minScore));
  let response: Response;
  try {
    response = await fetch(address, {
      method: 'POST',
      headers: { Authorization: `Bearer ${catalog.token}`, 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(call.document),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new Unreachable(`cannot reach the catalog at ${catalog.url}: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
  }
  const body = await response.json().catch(() => undefined) as Record<string, unknown> | undefined;
  if (response.ok && body) return answered(body);
  const problems = problemsOf(body as ErrorBody | undefined, response);
  // Only the gates answer 409 with the document's pointers or the score: another conflict is the caller's to fix.
  const byScore = ({ field }: { field: string }) => call.minScore !== undefined && (field === 'score' || field.startsWith('subscores/'));
  const byFailOn = ({ field }: { field: string }) => call.failOn !== undefined && field.startsWith('/');
  if (response.status === 409 && problems.length > 0 && problems.every((problem) => byFailOn(problem) || byScore(problem))) {
    return { exitCode: 1, result: 'refused', gate: problems.every(byScore) ? 'score' : call.failOn!, problems };
  }
  if (response.status === 429 || response.status >= 500) {
    throw new Unreachable(`the catalog answered ${response.status} ${response.statusText}${response.headers.get('retry-after') ? ` (retry after ${response.headers.get('retry-after')} s)` : ''}`);
  }
  return { exitCode: 2, result: response.status === 401 || response.status === 403 ? 'bad-credential' : 'bad-input', status: response.status, problems };
}

function answered(body: Record<string, unknown>): Answer {
  const records = (body['records'] ?? {}) as Record<string, { created: number; updated: number; deleted: number; unchanged: number }>;
  const written = Object.values(records).some(({ created, updated, deleted }) => created + updated + deleted > 0);
  return {
    exitCode: 0, result: body['dryRun'] ? 'dry-run' : written ? 'written' : 'unchanged',
    service: body['service'] as { id: string; slug: string }, records,
    ...(body['changes'] ? { changes: body['changes'] as PushOutcome['changes'] } : {}),
    ...(body['lint'] ? { lint: body['lint'] as PushOutcome['lint'] } : {}),
    ...(body['score'] ? { score: body['score'] as PushOutcome['score'] } : {}),
    warnings: (body['warnings'] ?? []) as PushOutcome['warnings'],
    problems: [],
  };
}

function problemsOf(body: ErrorBody | undefined, response: Response): { field: string; message: string }[] {
  const details = Array.isArray(body?.details) ? body.details : [];
  if (details.length > 0) return details.map(({ field, message }) => ({ field: field ?? '', message: message ?? '' }));
  return [{ field: '', message: `${response.status} ${body?.error ?? response.statusText}` }];
}
