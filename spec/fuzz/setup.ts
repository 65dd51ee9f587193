// The fuzz suite's world: a service listening on a port, the fuzzed tenant with records in every
// collection, and a bystander tenant. Built from the tests' own fixtures.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { testDatabase } from '../support/database.ts';
import { Client, schemas, sampleOf } from '../support/records.ts';
import { givenTenant, startCatalog, tokenFor, type TestCatalog } from '../support/catalog.ts';
import type { Targets } from './requests.ts';
import type { FuzzTarget } from './run.ts';

export interface FuzzWorld {
  service: TestCatalog;
  targets: Targets;
  target: FuzzTarget;
  close(): Promise<void>;
}

const SEEDED_PER_COLLECTION = 3;

export async function fuzzWorld(env: Record<string, string> = {}): Promise<FuzzWorld> {
  // startCatalog leaves the rate limit off: 429s to a fast run would prove nothing about the routes.
  const service = await startCatalog(env);
  const server: Server = service.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const tenant = await givenTenant(service);
  const bystander = await givenTenant(service);
  // Its key reaches neither version, so nothing generated may change the bystander's records.
  const stranger = await givenTenant(service);
  const existing: Record<string, string[]> = {};
  for (const who of [tenant, bystander]) {
    const client = new Client(service, who);
    for (const collection of schemas.collections) {
      for (let i = 0; i < SEEDED_PER_COLLECTION; i++) {
        const res = await client.create(collection.name, sampleOf(collection));
        if (res.status !== 201) throw new Error(`seeding ${collection.name}: ${res.status} ${res.text}`);
        if (who === tenant) (existing[collection.name] ??= []).push((res.body as { id: string }).id);
      }
    }
  }
  const snapshotOf = async (versionId: string) => {
    const { db } = testDatabase();
    const parts = await Promise.all(schemas.collections.map((collection) =>
      db.collection(collection.name).find({ versionId }, { projection: { _id: 0 } }).sort({ id: 1 }).toArray()));
    return JSON.stringify(parts);
  };
  const targets: Targets = {
    versionId: tenant.version.id,
    projectId: tenant.project.id,
    projectSlug: tenant.project.slug,
    versionSlug: tenant.version.slug,
    versionType: tenant.version.type,
    keys: { readWrite: tenant.key, readOnly: tenant.readOnlyKey, token: tokenFor([tenant.project.id]) },
    bystander: { versionId: bystander.version.id, strangerKey: stranger.key },
    existing,
  };
  const { port } = server.address() as AddressInfo;
  return {
    service,
    targets,
    target: {
      baseUrl: `http://127.0.0.1:${port}`,
      snapshot: () => snapshotOf(tenant.version.id),
      bystanderSnapshot: () => snapshotOf(bystander.version.id),
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await service.close();
    },
  };
}
