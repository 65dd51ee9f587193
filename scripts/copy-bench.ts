// `npm run bench:copy [-- 10000 100000]`: how long copying a version takes and how much memory
// the copying process holds, for versions of the given sizes, on a throwaway embedded database
// (FerretDB here). A measurement, never a test: numbers go to docs/versions.md.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { ulid } from 'ulid';
import type { Document } from 'mongodb';
import { openRuntime } from '../server/boot.ts';
import { naturalKeyOf } from '../server/store/natural-keys.ts';
import { loadConfig } from '../server/config.ts';
import { MemorySampler } from './bench/memory.ts';
import { freePort } from '../server/database/provision.ts';

const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
const SIZES = sizes.length > 0 ? sizes : [10_000, 100_000];

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'copy-bench-'));
const config = loadConfig({ EMBEDDED_DB: 'ferretdb', DATA_DIR: dataDir, EMBEDDED_DB_PORT: process.env['EMBEDDED_DB_PORT'] ?? String(await freePort()), LOG_LEVEL: 'warn', CACHE_DIR: path.resolve('.cache') });
const runtime = await openRuntime(config, pino({ level: 'warn' }));
try {
  process.stdout.write(`copy bench on ${runtime.database.server.label}, Node ${process.version}\n`);
  process.stdout.write('records  seed s  copy s  records/s  rss before MB  rss peak MB  heap before MB  heap peak MB  delete s\n');
  for (const size of SIZES) {
    const project = await runtime.tenancy.projects.create(`bench-${ulid().toLowerCase()}`, 'bench');
    const source = await runtime.tenancy.versions.create(project.id, 'branch', 'main');
    const seedStart = performance.now();
    await seed(source.id, size);
    const seedSeconds = (performance.now() - seedStart) / 1000;

    const sampler = new MemorySampler();
    sampler.start();
    const start = performance.now();
    const copy = await runtime.versionManager.create(project.id, 'branch', 'copy', source.id);
    const seconds = (performance.now() - start) / 1000;
    const { before, peak } = sampler.stop();
    const copied = await runtime.database.db.collection('paths').countDocuments({ versionId: copy.id });
    if (copied !== size) throw new Error(`copied ${copied} of ${size}`);
    // Deleting the copy (its records purged) is timed too; the source goes so the next size
    // starts from an empty database, as a fresh one would.
    const deleteStart = performance.now();
    await runtime.versionManager.delete(copy);
    const deleteSeconds = (performance.now() - deleteStart) / 1000;
    await runtime.versionManager.delete(source);
    process.stdout.write(`${[size, seedSeconds.toFixed(1), seconds.toFixed(1), Math.round(size / seconds),
      before.rssMB.toFixed(0), peak.rssMB.toFixed(0), before.heapUsedMB.toFixed(0), peak.heapUsedMB.toFixed(0), deleteSeconds.toFixed(1)].join('  ')}\n`);
  }
} finally {
  await runtime.close();
  await fs.rm(dataDir, { recursive: true, force: true });
}

/** `count` paths of a realistic size, in the stored form the record store writes (one template, new ids). */
async function seed(versionId: string, count: number): Promise<void> {
  const store = runtime.stores.get('paths')!;
  await store.insert({
    id: `path_${ulid()}`, versionId, serviceId: `svc_${ulid()}`, path: '/pets/{petId}', summary: 'A pet',
    description: 'Returns one pet by id, with its owner and tags.'.repeat(4), kvStorage: { 'x-team': 'pets', tags: ['a', 'b'] },
  }, new Date());
  const documents = runtime.database.db.collection('paths');
  const stored = (await documents.findOne({ versionId }))!;
  await documents.deleteOne({ _id: stored._id });
  for (let at = 0; at < count; at += 1000) {
    const batch: Document[] = [];
    for (let i = at; i < Math.min(count, at + 1000); i++) {
      const id = `path_${ulid()}`;
      // Each copy of the stored form gets its own natural key (`_key`, see docs/storage.md).
      batch.push({ ...stored, _id: `${versionId}:${id}` as never, id, path: `/pets/${i}`, _key: naturalKeyOf(store.collection.naturalKey, { ...stored, path: `/pets/${i}` }) });
    }
    await documents.insertMany(batch);
  }
}
