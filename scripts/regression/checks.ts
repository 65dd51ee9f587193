// The re-import regression checks on one real description, over HTTP as a CI job
// would run them: import; re-import unchanged; dry-run compare with itself; copy the version and
// compare; remove one operation and re-import; insert a path first and re-import. Each check
// that fails says why; `changesReport` marks the ones that judge the changes report
// (server/changes/) rather than what the import writes.
import type supertest from 'supertest';

type Counts = Record<string, { created: number; updated: number; deleted: number; unchanged: number }>;
type Json = Record<string, unknown>;

export interface Failure {
  step: string;
  message: string;
  /** The check judges the changes report (server/changes/), not the import's writes. */
  changesReport: boolean;
}

export interface Target {
  request: supertest.Agent;
  key: string;
  /** The version's `/v2/catalog/versions/<id>` prefix, its id, and the project's slug (to copy it). */
  versionId: string;
  projectSlug: string;
  /** Told each request's step and how long it took to answer (for the largest descriptions' figures). */
  timed?: (step: string, ms: number, status: number) => void;
}

/**
 * How long one request may take before the check calls it stalled (an import answers within
 * seconds); REGRESSION_ANSWER_MS raises it for the largest descriptions on a loaded machine
 * (Microsoft Graph beta's first import alone takes 65 to 110 s on two shared cores).
 */
export const ANSWER_WITHIN_MS = Number(process.env['REGRESSION_ANSWER_MS'] ?? 60_000);

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
/** A path no real description has, inserted before all others. */
export const INSERTED_PATH = '/catalog-regression-inserted';
/** What an operation's records are: what removing one may delete and nothing else. */
const OPERATION_KINDS = new Set(['operations', 'parameters', 'requests', 'responses', 'servers']);

export async function checkDescription(target: Target, document: Json, slug: string): Promise<Failure[]> {
  const failures: Failure[] = [];
  const fail = (step: string, message: string, changesReport = false): void => { failures.push({ step, message, changesReport }); };
  const auth = { Authorization: `Bearer ${target.key}` };
  const prefix = `/v2/catalog/versions/${target.versionId}`;
  const timed = async (step: string, test: supertest.Test) => {
    const started = performance.now();
    const got = await answer(test);
    target.timed?.(step, performance.now() - started, got.status);
    return got;
  };
  const post = async (url: string, body: unknown, step: string) => timed(step, target.request.post(url).set(auth).send(body as object));
  const importUrl = (query = '') => `${prefix}/imports/openapi?service=${slug}${query}`;

  const first = await post(importUrl(), document, '1 import');
  if (first.status !== 201) {
    fail('import', `answered ${first.status}: ${brief(first.body)}`);
    return failures;
  }

  const again = await post(importUrl(), document, '2 re-import unchanged');
  if (again.status !== 200) fail('re-import unchanged', `answered ${again.status}: ${brief(again.body)}`);
  else {
    const written = writes(again.body['records'] as Counts);
    if (written.length > 0) fail('re-import unchanged', `wrote ${written.join(', ')}`);
  }

  const self = await post(importUrl('&dryRun=true'), document, '3 dry run with itself');
  if (self.status !== 200) fail('dry run with itself', `answered ${self.status}: ${brief(self.body)}`);
  else if (changeCount(self.body) !== 0) fail('dry run with itself', `reports ${describeChanges(self.body)}`, true);

  const copySlug = `copy-${slug}`.slice(0, 60);
  const copy = await post(`/v2/catalog/projects/${target.projectSlug}/versions`, { type: 'branch', slug: copySlug, copyFrom: target.versionId }, '4a copy');
  if (copy.status !== 201) fail('copy and compare', `copy answered ${copy.status}: ${brief(copy.body)}`);
  else {
    const compared = await timed('4 compare copy', target.request.get(`/v2/catalog/versions/${String(copy.body['id'])}/changes?against=${target.versionId}`).set(auth));
    if (compared.status !== 200) fail('copy and compare', `compare answered ${compared.status}: ${brief(compared.body)}`);
    // The compare answers the changes report itself; an import's dry run has it under `changes`.
    else if (changeCount({ changes: compared.body }) !== 0) fail('copy and compare', `reports ${describeChanges({ changes: compared.body })}`, true);
  }

  // A description without operations (a few have no paths) skips to the insertion.
  const removed = withoutOneOperation(document);
  if (removed) {
    const dry = await post(importUrl('&dryRun=true'), removed.document, '5 dry run without one operation');
    if (dry.status !== 200) fail('remove one operation', `dry run answered ${dry.status}: ${brief(dry.body)}`);
    else {
      const breaking = (dry.body['changes'] as { summary?: { breaking?: number } } | undefined)?.summary?.breaking;
      const expected = removed.deprecated ? 'one change, not breaking (the operation was deprecated)' : 'exactly one breaking change';
      if (breaking !== (removed.deprecated ? 0 : 1) || changeCount(dry.body) !== 1) fail('remove one operation', `${removed.operation}: reports ${describeChanges(dry.body)}, not ${expected}`, true);
    }
    const edited = await post(importUrl(), removed.document, '5b import without one operation');
    if (edited.status !== 200) fail('remove one operation', `${removed.operation}: answered ${edited.status}: ${brief(edited.body)}`);
    else {
      const records = edited.body['records'] as Counts;
      const beyond = writes(records).filter((write) => !(write.startsWith('deleted') && OPERATION_KINDS.has(write.split(' ').at(-1)!)));
      if (records['operations']?.deleted !== 1) beyond.push(`deleted ${records['operations']?.deleted ?? 0} operations`);
      if (beyond.length > 0) fail('remove one operation', `${removed.operation}: wrote ${beyond.join(', ')} beyond that operation's records`);
    }
  }

  const inserted = withPathFirst(removed?.document ?? document);
  const insert = await post(importUrl(), inserted, '6 insert a path first');
  if (insert.status !== 200) fail('insert a path first', `answered ${insert.status}: ${brief(insert.body)}`);
  else {
    const records = insert.body['records'] as Counts;
    const expected = ['created 1 paths', 'created 1 operations', 'created 1 responses'];
    const written = writes(records);
    if (written.join(', ') !== expected.join(', ')) fail('insert a path first', `wrote ${written.join(', ') || 'nothing'}, not only the new path's records (${expected.join(', ')})`);
  }
  return failures;
}

/** The request's answer, or a 599 when it does not come within ANSWER_WITHIN_MS (a stall). */
async function answer(test: supertest.Test): Promise<{ status: number; body: Json }> {
  try {
    const res = await test.timeout(ANSWER_WITHIN_MS);
    return { status: res.status, body: (res.body ?? {}) as Json };
  } catch (error) {
    if ((error as { timeout?: unknown }).timeout !== undefined) return { status: 599, body: { error: `no answer within ${ANSWER_WITHIN_MS} ms` } };
    throw error;
  }
}

/** `created 1 paths`-style lines for every count but `unchanged`, in collection order. */
export function writes(records: Counts): string[] {
  return Object.entries(records).flatMap(([name, counts]) => (['created', 'updated', 'deleted'] as const)
    .filter((kind) => counts[kind] > 0).map((kind) => `${kind} ${counts[kind]} ${name}`));
}

function changeCount(body: Json): number {
  const summary = (body['changes'] as { summary?: { breaking: number; nonBreaking: number } } | undefined)?.summary;
  return summary ? summary.breaking + summary.nonBreaking : Number.NaN;
}

function describeChanges(body: Json): string {
  const report = body['changes'] as { summary: { breaking: number; nonBreaking: number }; changes: { rule: string; operation?: unknown }[] } | undefined;
  if (!report) return 'no changes report';
  const rules = new Map<string, number>();
  for (const change of report.changes) rules.set(change.rule, (rules.get(change.rule) ?? 0) + 1);
  return `${report.summary.breaking} breaking and ${report.summary.nonBreaking} non-breaking changes (${[...rules].map(([rule, n]) => `${rule} ×${n}`).join(', ')})`;
}

export function brief(body: Json): string {
  return JSON.stringify(body).slice(0, 300);
}

/**
 * The document without one operation: the last of the middle path among those that keep another
 * (so the path stays), else of the middle path; not a deprecated one where any is not.
 */
export function withoutOneOperation(document: Json): { document: Json; operation: string; deprecated: boolean } | undefined {
  const paths = Object.entries((document['paths'] ?? {}) as Record<string, Json>);
  const methodsOf = (item: Json) => METHODS.filter((method) => typeof item[method] === 'object' && item[method] !== null);
  const removable = (item: Json, deprecated: boolean) => methodsOf(item).filter((method) => ((item[method] as Json)['deprecated'] === true) === deprecated);
  // An operation not deprecated, whose removal breaks clients; only where every one is deprecated,
  // one of those, whose removal is announced and so not breaking (server/changes/lifecycle.ts).
  for (const deprecated of [false, true]) {
    const holding = paths.filter(([, item]) => removable(item, deprecated).length > 0);
    const shared = holding.filter(([, item]) => methodsOf(item).length >= 2);
    const candidates = shared.length > 0 ? shared : holding;
    if (candidates.length === 0) continue;
    const [path, item] = candidates[Math.floor(candidates.length / 2)]!;
    const method = removable(item, deprecated).at(-1)!;
    const { [method]: _gone, ...rest } = item;
    return { document: { ...document, paths: Object.fromEntries(paths.map(([p, value]) => [p, p === path ? rest : value])) }, operation: `${method.toUpperCase()} ${path}`, deprecated };
  }
  return undefined;
}

/** The document with one small path inserted before all others. */
export function withPathFirst(document: Json): Json {
  const inserted = { get: { operationId: 'catalogRegressionInserted', responses: { 200: { description: 'ok' } } } };
  return { ...document, paths: { [INSERTED_PATH]: inserted, ...((document['paths'] ?? {}) as Json) } };
}
