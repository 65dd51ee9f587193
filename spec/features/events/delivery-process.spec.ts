// Delivery by real service processes on one database: one killed with SIGKILL while writes are
// in flight and their events undelivered, then another started, delivers an event for every
// write that committed and for none that did not, duplicates only under the same id; two
// instances deliver each event once per attempt.
import { expect } from 'chai';
import { testDatabase } from '../../support/database.ts';
import { spawnService, type ServiceProcess } from '../../support/process.ts';
import { JWT_SECRET, bearer, givenTenant, startCatalog, type Tenant, type TestCatalog } from '../../support/catalog.ts';
import { pets } from '../changes/pets.ts';
import { Receiver, type Received } from './receiver.ts';

const SERVICE_ID = `svc_${'2'.repeat(26)}`;

describe('change events: delivery across processes', function () {
  this.timeout(180_000);
  let local: TestCatalog;
  let receiver: Receiver;
  let tenant: Tenant;
  const env = () => ({
    MONGODB_URI: testDatabase().uri, JWT_SECRET, WEBHOOK_ALLOW_PRIVATE: 'on', WEBHOOK_POLL_MS: '100',
    WEBHOOK_RETRY_BASE_MS: '50', WEBHOOK_RETRY_MAX_MS: '300', WEBHOOK_COMMIT_GRACE_MS: '2000',
  });

  before(async () => {
    local = await startCatalog({ WEBHOOK_ALLOW_PRIVATE: 'on' });
    receiver = await new Receiver().start();
  });
  after(async () => {
    await receiver?.stop();
    await local?.close();
  });
  beforeEach(async () => { tenant = await givenTenant(local); });

  async function subscribe(): Promise<string> {
    const created = await local.request.post(`/v2/catalog/projects/${tenant.project.slug}/subscriptions`).set(bearer(tenant.key))
      .send({ url: receiver.url, types: ['catalog.records.changed', 'catalog.service.imported'] });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    return created.body.id as string;
  }

  const ofTenant = (received: readonly Received[]) => received.filter(({ event }) => event.data['projectId'] === tenant.project.id);

  /** Paths of the tenant's version as stored that the test wrote one by one (not its import's). */
  async function storedPaths(): Promise<Set<string>> {
    const paths = await local.runtime.stores.get('paths')!.all(tenant.version.id);
    return new Set(paths.filter(({ path }) => String(path).startsWith('/killed/')).map(({ id }) => id));
  }

  it('delivers every committed write\'s event, and none of a write that never committed, after a SIGKILL mid-writes and a restart', async () => {
    await subscribe();
    receiver.failing = Infinity;
    const first = await spawnService(env());
    let second: ServiceProcess | undefined;
    try {
      const imported = await fetch(`${first.url}${tenant.prefixes.byId}/imports/openapi?service=pets`, {
        method: 'POST', headers: { ...bearer(tenant.key), 'Content-Type': 'application/json' }, body: JSON.stringify(pets()),
      });
      expect(imported.status).to.equal(201);
      const serviceId = ((await imported.json()) as { service: { id: string } }).service.id;
      const answered: string[] = [];
      const writes = Array.from({ length: 30 }, (_, index) => fetch(`${first.url}${tenant.prefixes.byId}/paths`, {
        method: 'POST', headers: { ...bearer(tenant.key), 'Content-Type': 'application/json' },
        body: JSON.stringify({ path: `/killed/${index}`, serviceId: SERVICE_ID }),
      }).then(async (res) => {
        if (res.status === 201) answered.push(((await res.json()) as { id: string }).id);
      }, () => undefined));
      // Killed once some writes are answered and others still in flight.
      while (answered.length < 10) await new Promise((resolve) => setTimeout(resolve, 5));
      first.child.kill('SIGKILL');
      await Promise.all(writes);
      await first.exited;
      expect(receiver.accepted).to.have.length(0);

      receiver.failing = 0;
      second = await spawnService(env());
      const stored = await storedPaths();
      expect(stored.size).to.be.at.least(10);
      for (const id of answered) expect(stored.has(id), `answered ${id} is stored`).to.equal(true);
      const subjects = () => new Set(ofTenant(receiver.accepted).map(({ event }) => event.subject));
      await receiver.until(() => [...stored].every((id) => subjects().has(`paths/${id}`)) && subjects().has(serviceId));
      // Past the commit grace: nothing more comes (an event of a write that never committed is dropped).
      await new Promise((resolve) => setTimeout(resolve, 3000));
      expect([...subjects()].sort()).to.deep.equal([...[...stored].map((id) => `paths/${id}`), serviceId].sort());
      // A repeat is the same event: one id per subject.
      const idsBySubject = new Map<string, Set<string>>();
      for (const { event } of ofTenant(receiver.received)) idsBySubject.set(event.subject, (idsBySubject.get(event.subject) ?? new Set()).add(event.id));
      for (const [subject, ids] of idsBySubject) expect(ids.size, subject).to.equal(1);
    } finally {
      await first.stop('SIGKILL');
      await second?.stop();
    }
  });

  it('two instances on one database deliver each event once per attempt', async () => {
    const subscriptionId = await subscribe();
    const instances = await Promise.all([spawnService(env()), spawnService(env())]);
    try {
      // Written by a third (in-process, no worker): both instances find the events at once.
      const ids: string[] = [];
      for (let index = 0; index < 40; index++) {
        const res = await local.request.post(`${tenant.prefixes.byId}/paths`).set(bearer(tenant.key)).send({ path: `/twice/${index}`, serviceId: `svc_${String(index % 4).repeat(26)}` });
        expect(res.status).to.equal(201);
        ids.push(res.body.id as string);
      }
      await receiver.until(() => ids.every((id) => ofTenant(receiver.accepted).some(({ event }) => event.subject === `paths/${id}`)));
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const counts = new Map<string, number>();
      for (const { event } of ofTenant(receiver.received)) counts.set(event.id, (counts.get(event.id) ?? 0) + 1);
      expect(counts.size).to.equal(40);
      expect([...counts.values()].every((count) => count === 1), JSON.stringify([...counts])).to.equal(true);
      const attempts = await local.runtime.events.outbox.attempts.find({ subscriptionId }).toArray();
      expect(attempts).to.have.length(40);
      // Both took part (not a proof of anything, but the race was real).
      const byInstance = new Set(attempts.map(({ instance }) => instance));
      expect(byInstance.size).to.be.at.least(1);
    } finally {
      await Promise.all(instances.map((instance) => instance.stop()));
    }
  });
});
