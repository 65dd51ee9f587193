// What a receiver that was away gets: everything, each service's events in the order they were
// made; a paused subscription's events held until it is resumed; a Service's lifecycle set over
// the interface is an event of its own (the field added to the schema here, as its room adds it).
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../../../server/config.ts';
import { governanceEvents } from '../../../server/room-events.ts';
import { loadSchemaRegistry } from '../../../server/schemas/registry.ts';
import { bearer, givenTenant, startCatalog, type Tenant, type TestCatalog } from '../../support/catalog.ts';
import { pets, petsWith } from '../changes/pets.ts';
import { Receiver } from './receiver.ts';

const FAST = { WEBHOOK_ALLOW_PRIVATE: 'on', WEBHOOK_POLL_MS: '50', WEBHOOK_RETRY_BASE_MS: '20', WEBHOOK_RETRY_MAX_MS: '100', WEBHOOK_COMMIT_GRACE_MS: '1000' };

/** The schemas with a `lifecycle` on the Service record. */
function schemasWithLifecycle() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'schemas-lifecycle-'));
  fs.cpSync(path.join(repoRoot, 'schemas'), dir, { recursive: true });
  const file = path.join(dir, 'records/service.json');
  const schema = JSON.parse(fs.readFileSync(file, 'utf8'));
  schema.properties.lifecycle = { title: 'Lifecycle', description: 'Where the service is in its life.', type: 'string', enum: ['experimental', 'production', 'deprecated', 'retired'] };
  fs.writeFileSync(file, JSON.stringify(schema));
  return loadSchemaRegistry(dir);
}

describe('change events: order, pauses, lifecycle', function () {
  this.timeout(90_000);
  let service: TestCatalog;
  let tenant: Tenant;
  let receiver: Receiver;

  before(async () => {
    service = await startCatalog(FAST, schemasWithLifecycle());
    receiver = await new Receiver().start();
    service.runtime.events.worker.start();
  });
  beforeEach(async () => { tenant = await givenTenant(service); });
  after(async () => {
    await service?.runtime.events.worker.stop();
    await receiver?.stop();
    await service?.close();
  });

  async function subscribe(types: string[]): Promise<string> {
    const res = await service.request.post(`/v2/catalog/projects/${tenant.project.slug}/subscriptions`).set(bearer(tenant.key)).send({ url: receiver.url, types });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.id as string;
  }
  const ofTenant = () => receiver.accepted.filter(({ event }) => event.data['projectId'] === tenant.project.id);

  it('delivers all of a service\'s events in order once a failing receiver comes back', async () => {
    await subscribe(['catalog.service.imported', 'catalog.service.changed']);
    receiver.failing = Infinity;
    const imports = [pets(), petsWith((doc) => { doc['info'].version = '2'; }), petsWith((doc) => { doc['info'].version = '3'; }), petsWith((doc) => { doc['info'].version = '4'; })];
    for (const doc of imports) {
      const res = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=pets`).set(bearer(tenant.key)).send(doc);
      expect(res.status, JSON.stringify(res.body)).to.be.oneOf([200, 201]);
    }
    // Tried and refused at least once before it comes back.
    await receiver.until(() => receiver.received.some(({ event }) => event.data['projectId'] === tenant.project.id));
    receiver.failing = 0;
    await receiver.until(() => ofTenant().length === 4);
    const events = ofTenant().map(({ event }) => event);
    expect(events.map(({ type }) => type)).to.deep.equal(['catalog.service.imported', 'catalog.service.changed', 'catalog.service.changed', 'catalog.service.changed']);
    expect(events.map(({ id }) => id)).to.deep.equal(events.map(({ id }) => id).sort());
  });

  it('holds a paused subscription\'s events and delivers them once resumed', async () => {
    const id = await subscribe(['catalog.records.changed']);
    const base = `/v2/catalog/projects/${tenant.project.slug}/subscriptions/${id}`;
    expect((await service.request.patch(base).set(bearer(tenant.key)).send({ paused: true })).status).to.equal(200);
    const res = await service.request.post(`${tenant.prefixes.byId}/paths`).set(bearer(tenant.key)).send({ path: '/held', serviceId: `svc_${'3'.repeat(26)}` });
    expect(res.status).to.equal(201);
    await service.runtime.events.worker.round();
    expect(ofTenant()).to.have.length(0);
    expect((await service.request.get(`${base}/deliveries`).set(bearer(tenant.key))).body.items).to.have.length(0);
    expect((await service.request.patch(base).set(bearer(tenant.key)).send({ paused: false })).status).to.equal(200);
    await receiver.until(() => ofTenant().length === 1);
    expect(ofTenant()[0]!.event.subject).to.equal(`paths/${res.body.id}`);
  });

  it('sends lifecycle changed when a Service\'s lifecycle is set, not when it is written unchanged', async () => {
    await subscribe(['catalog.service.lifecycle_changed']);
    const created = await service.request.post(`${tenant.prefixes.byId}/services`).set(bearer(tenant.key)).send({ slug: 'billing', organizationId: tenant.project.id, lifecycle: 'production' });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const url = `${tenant.prefixes.byId}/services/${created.body.id}`;
    expect((await service.request.patch(url).set(bearer(tenant.key)).send({ lifecycle: 'deprecated' })).status).to.equal(200);
    expect((await service.request.patch(url).set(bearer(tenant.key)).send({ lifecycle: 'deprecated' })).status).to.equal(200);
    expect((await service.request.patch(url).set(bearer(tenant.key)).send({ lifecycle: 'retired' })).status).to.equal(200);
    await receiver.until(() => ofTenant().length >= 2);
    await service.runtime.events.worker.round();
    const events = ofTenant().map(({ event }) => event);
    expect(events.map(({ subject, data }) => [subject, data['from'], data['to']])).to.deep.equal([[created.body.id, 'production', 'deprecated'], [created.body.id, 'deprecated', 'retired']]);
    expect(events.every(({ type }) => type === 'catalog.service.lifecycle_changed')).to.equal(true);
  });

  it('sends an import\'s event without counts when its changes report never came (its instance stopped), once the hold passes', async () => {
    await subscribe(['catalog.service.changed']);
    const change = {
      type: 'catalog.service.changed' as const, projectId: tenant.project.id, versionId: tenant.version.id, subject: `svc_${'5'.repeat(26)}`,
      service: { id: `svc_${'5'.repeat(26)}`, slug: 'stopped' }, data: { breaking: null, nonBreaking: null },
    };
    // Committed (the version is there), held for its counts, never completed.
    const check = { kind: 'version-made', projectId: tenant.project.id, type: tenant.version.type, slug: tenant.version.slug, since: new Date(0).toISOString() } as const;
    const pending = await service.runtime.events.pending([change], check, { held: true });
    expect(pending).to.not.equal(undefined);
    const [job] = await service.runtime.events.outbox.jobs.find({ projectId: tenant.project.id }).toArray();
    expect(job).to.include({ state: 'pending' });
    expect(job!.holdUntil).to.be.a('string');
    await receiver.until(() => ofTenant().length === 1);
    expect(ofTenant()[0]!.event.data).to.include({ breaking: null, nonBreaking: null });
  });

  it('records a lint or score change through the governance entry point, with its write', async () => {
    await subscribe(['catalog.service.lint_changed']);
    const record = governanceEvents(service.runtime.events);
    const version = { versionId: tenant.version.id, projectId: tenant.project.id };
    const check = { kind: 'version-made', projectId: tenant.project.id, type: tenant.version.type, slug: tenant.version.slug, since: new Date(0).toISOString() } as const;
    const written = await record({ type: 'catalog.service.lint_changed', version, service: { id: `svc_${'6'.repeat(26)}`, slug: 'linted' }, data: { errors: 3 } }, check, async () => 'written');
    expect(written).to.equal('written');
    await receiver.until(() => ofTenant().length === 1);
    expect(ofTenant()[0]!.event).to.include({ type: 'catalog.service.lint_changed', subject: `svc_${'6'.repeat(26)}` });
    expect(ofTenant()[0]!.event.data).to.include({ errors: 3 });
  });
});
