// Subscriptions over HTTP and the events each kind of write sends, to a real receiver: signed
// (verified with the `standardwebhooks` library), CloudEvents 1.0, retried with backoff when the
// receiver fails until it recovers, each attempt listed, redelivered on demand.
import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { bearer, givenTenant, catalogForSuite, type Tenant, type TestCatalog } from '../../support/catalog.ts';
import { pets, petsWith } from '../changes/pets.ts';
import { Receiver } from './receiver.ts';

const FAST = { WEBHOOK_ALLOW_PRIVATE: 'on', WEBHOOK_POLL_MS: '50', WEBHOOK_RETRY_BASE_MS: '50', WEBHOOK_RETRY_MAX_MS: '200' };

describe('change events: subscriptions and deliveries', function () {
  this.timeout(60_000);
  let service: TestCatalog;
  let tenant: Tenant;
  let receiver: Receiver;
  const base = () => `/v2/catalog/projects/${tenant.project.slug}/subscriptions`;

  catalogForSuite((made) => ({ service, tenant } = made), FAST);
  before(async () => {
    receiver = await new Receiver().start();
    service.runtime.events.worker.start();
  });
  after(async () => {
    await service.runtime.events.worker.stop();
    await receiver.stop();
  });

  async function subscribe(body: Record<string, unknown>, key = tenant.key) {
    return service.request.post(base()).set(bearer(key)).send(body);
  }

  /** Once the worker has logged the delivery of the subject's event. */
  async function settled(id: string, subject: string) {
    const { jobs } = service.runtime.events.outbox;
    for (const end = Date.now() + 30_000; !await jobs.findOne({ subscriptionId: id, subject, state: 'delivered' }); await new Promise((resolve) => setTimeout(resolve, 50))) {
      if (Date.now() > end) throw new Error(`${subject}: not delivered in 30 s`);
    }
  }

  /** The attempts at one subject's event, newest first, once `count` of them have an outcome logged. */
  async function loggedAttempts(id: string, subject: string, count: number) {
    for (const end = Date.now() + 30_000; ; await new Promise((resolve) => setTimeout(resolve, 50))) {
      const deliveries = await service.request.get(`${base()}/${id}/deliveries`).set(bearer(tenant.readOnlyKey));
      expect(deliveries.status, JSON.stringify(deliveries.body)).to.equal(200);
      const attempts = deliveries.body.items.filter((item: { subject: string }) => item.subject === subject);
      if (attempts.filter((item: { durationMs?: number }) => item.durationMs !== undefined).length >= count || Date.now() > end) return attempts;
    }
  }

  it('creates, lists, gets, pauses, resumes and deletes a subscription; the secret is answered once', async () => {
    const created = await subscribe({ url: receiver.url, types: ['catalog.records.changed'] });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body.secret).to.match(/^whsec_/);
    expect(created.headers['location']).to.equal(`/v2/catalog/projects/${tenant.project.id}/subscriptions/${created.body.id}`);
    const id = created.body.id as string;
    const listed = await service.request.get(base()).set(bearer(tenant.readOnlyKey));
    expect(listed.body.items.map((item: { id: string }) => item.id)).to.include(id);
    expect(listed.body.items.every((item: object) => !('secret' in item))).to.equal(true);
    const got = await service.request.get(`${base()}/${id}`).set(bearer(tenant.readOnlyKey));
    expect(got.status).to.equal(200);
    expect(got.body).to.not.have.property('secret');
    expect((await service.request.patch(`${base()}/${id}`).set(bearer(tenant.key)).send({ paused: true })).body.paused).to.equal(true);
    expect((await service.request.patch(`${base()}/${id}`).set(bearer(tenant.key)).send({ paused: false })).body.paused).to.equal(false);
    expect((await service.request.delete(`${base()}/${id}`).set(bearer(tenant.key))).status).to.equal(204);
    expect((await service.request.get(`${base()}/${id}`).set(bearer(tenant.key))).status).to.equal(404);
  });

  it('needs write access to subscribe, and refuses what is no event type or no http URL', async () => {
    expect((await subscribe({ url: receiver.url, types: ['catalog.records.changed'] }, tenant.readOnlyKey)).status).to.equal(403);
    expect((await subscribe({ url: receiver.url, types: ['catalog.nothing'] })).status).to.equal(400);
    const ftp = await subscribe({ url: 'ftp://example.com/x', types: ['catalog.records.changed'] });
    expect(ftp.status).to.equal(400);
    expect(ftp.body.details[0].field).to.equal('/url');
  });

  it('sends an event of each type, signed, as CloudEvents 1.0', async () => {
    const own = await givenTenant(service);
    const created = await service.request.post(`/v2/catalog/projects/${own.project.slug}/subscriptions`).set(bearer(own.key))
      .send({ url: receiver.url, types: ['catalog.service.imported', 'catalog.service.changed', 'catalog.version.created', 'catalog.version.copied', 'catalog.version.deleted', 'catalog.records.changed'] });
    const secret = created.body.secret as string;
    const ofOwn = () => receiver.accepted.filter(({ event }) => event.data['projectId'] === own.project.id);
    const write = async (call: Promise<{ status: number; body: unknown }>, status: number) => {
      const res = await call;
      expect(res.status, JSON.stringify(res.body)).to.equal(status);
      return res.body as Record<string, any>;
    };
    await write(service.request.post(`${own.prefixes.byId}/imports/openapi?service=pets`).set(bearer(own.key)).send(pets()), 201);
    // Made required: one breaking change.
    await write(service.request.post(`${own.prefixes.byId}/imports/openapi?service=pets`).set(bearer(own.key)).send(petsWith((doc) => { doc['paths']['/pets'].get.parameters[0].required = true; })), 200);
    const path = await write(service.request.post(`${own.prefixes.byId}/paths`).set(bearer(own.key)).send({ path: '/extra', serviceId: `svc_${'0'.repeat(26)}` }), 201);
    const versions = `/v2/catalog/projects/${own.project.slug}/versions`;
    const made = await write(service.request.post(versions).set(bearer(own.key)).send({ type: 'branch', slug: 'made' }), 201);
    const copy = await write(service.request.post(versions).set(bearer(own.key)).send({ type: 'branch', slug: 'copy', copyFrom: 'branch/main' }), 201);
    await write(service.request.delete(`/v2/catalog/versions/${made['id']}`).set(bearer(own.key)), 204);
    await receiver.until(() => ofOwn().length >= 6);
    const events = ofOwn().map(({ event }) => event);
    expect(events.map(({ type }) => type)).to.have.members([
      'catalog.service.imported', 'catalog.service.changed', 'catalog.records.changed', 'catalog.version.created', 'catalog.version.copied', 'catalog.version.deleted',
    ]);
    const changed = events.find(({ type }) => type === 'catalog.service.changed')!;
    expect(changed.data['breaking']).to.be.greaterThan(0);
    expect(changed.data['links']['openapi']).to.match(/\/openapi$/);
    expect(events.find(({ type }) => type === 'catalog.records.changed')!.subject).to.equal(`paths/${path['id']}`);
    expect(events.find(({ type }) => type === 'catalog.version.copied')!.data['copiedFrom']).to.equal(own.version.id);
    expect(events.find(({ type }) => type === 'catalog.version.deleted')!.subject).to.equal(made['id']);
    expect(copy['id']).to.be.a('string');
    for (const { headers, body, event } of ofOwn()) {
      expect(new Webhook(secret).verify(body, headers)).to.deep.equal(JSON.parse(body));
      expect(headers['webhook-id']).to.equal(event.id);
      expect(headers['content-type']).to.match(/^application\/cloudevents\+json/);
      expect(event).to.include({ specversion: '1.0', source: `/v2/catalog/projects/${own.project.id}` });
      expect(event).to.have.property('time');
    }
    // Tampered, the signature fails.
    const [first] = ofOwn();
    expect(() => new Webhook(secret).verify(first!.body.replace('catalog', 'katalog'), first!.headers)).to.throw();
  });

  it('records no event for a dry run, an import the gate refuses, or one that changes nothing', async () => {
    const own = await givenTenant(service);
    const created = await service.request.post(`/v2/catalog/projects/${own.project.slug}/subscriptions`).set(bearer(own.key))
      .send({ url: receiver.url, types: ['catalog.service.imported', 'catalog.service.changed'] });
    const jobs = () => service.runtime.events.outbox.jobs.find({ subscriptionId: created.body.id }).toArray();
    const importing = (query: string, doc: object) => service.request.post(`${own.prefixes.byId}/imports/openapi?service=pets${query}`).set(bearer(own.key)).send(doc);
    expect((await importing('&dryRun=true', pets())).status).to.equal(200);
    expect(await jobs()).to.have.length(0);
    expect((await importing('', pets())).status).to.equal(201);
    expect((await importing('', pets())).status).to.equal(200);
    const breaking = petsWith((doc) => { doc['paths']['/pets'].get.parameters[0].required = true; });
    expect((await importing('&failOn=breaking', breaking)).status).to.equal(409);
    const recorded = await jobs();
    expect(recorded.map(({ type }) => type)).to.deep.equal(['catalog.service.imported']);
    // Its counts are made behind the answer; then it goes.
    await receiver.until(() => receiver.accepted.some(({ event }) => event.id === recorded[0]!.eventId));
  });

  it('retries with backoff while the receiver fails, lists each attempt, and redelivers on demand', async () => {
    const created = await subscribe({ url: receiver.url, types: ['catalog.records.changed'] });
    const id = created.body.id as string;
    receiver.failing = 2;
    const path = await service.request.post(`${tenant.prefixes.byId}/paths`).set(bearer(tenant.key)).send({ path: '/retried', serviceId: `svc_${'1'.repeat(26)}` });
    expect(path.status).to.equal(201);
    const mine = () => receiver.received.filter(({ event }) => event.subject === `paths/${path.body.id}`);
    await receiver.until(() => mine().some(({ answered }) => answered < 300));
    expect(mine().map(({ answered }) => answered)).to.deep.equal([503, 503, 204]);
    expect(new Set(mine().map(({ event }) => event.id)).size).to.equal(1);
    // The receiver has answered before the worker logs what the attempt came to: until then the
    // attempt is listed under way, without a status.
    const attempts = await loggedAttempts(id, `paths/${path.body.id}`, 3);
    expect(attempts.map((item: { attempt: number; status: number; ok: boolean }) => [item.attempt, item.status, item.ok])).to.deep.equal([[3, 204, true], [2, 503, false], [1, 503, false]]);
    expect(attempts.every((item: { durationMs: number }) => item.durationMs >= 0)).to.equal(true);

    const again = await service.request.post(`${base()}/${id}/redeliver`).set(bearer(tenant.key)).send({ eventId: attempts[0].eventId });
    expect(again.status, JSON.stringify(again.body)).to.equal(202);
    await receiver.until(() => mine().filter(({ answered }) => answered < 300).length === 2);
    const unknown = await service.request.post(`${base()}/${id}/redeliver`).set(bearer(tenant.key)).send({ eventId: `evt_${'0'.repeat(26)}` });
    expect(unknown.status).to.equal(400);
  });

  it('forgets delivered events and attempts past WEBHOOK_KEEP_DAYS, never an event still to deliver', async () => {
    const created = await subscribe({ url: receiver.url, types: ['catalog.records.changed'] });
    const id = created.body.id as string;
    const delivered = await service.request.post(`${tenant.prefixes.byId}/paths`).set(bearer(tenant.key)).send({ path: '/kept-a-while', serviceId: `svc_${'4'.repeat(26)}` });
    // Settled only once the worker has logged the receiver's answer, which comes after it.
    await settled(id, `paths/${delivered.body.id}`);
    await service.request.patch(`${base()}/${id}`).set(bearer(tenant.key)).send({ paused: true });
    const held = await service.request.post(`${tenant.prefixes.byId}/paths`).set(bearer(tenant.key)).send({ path: '/still-held', serviceId: `svc_${'4'.repeat(26)}` });
    expect(held.status).to.equal(201);
    const { outbox } = service.runtime.events;
    await outbox.prune(new Date(Date.now() + 86_400_000));
    const left = await outbox.jobs.find({ subscriptionId: id }).toArray();
    expect(left.map(({ subject, state }) => [subject, state])).to.deep.equal([[`paths/${held.body.id}`, 'ready']]);
    expect(await outbox.attempts.countDocuments({ subscriptionId: id })).to.equal(0);
  });
});
