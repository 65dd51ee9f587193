// Lint and score changes, and a lifecycle changed by a re-import, sent to a real receiver: a real
// small description (APIs.guru's Interzoid weather by zip code) imported, then stripped of its
// descriptions so that its lint counts and its score change; an unchanged re-import sends none.
import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { verdictOf } from '../../../server/events/commits.ts';
import { SCORES_COLLECTION } from '../../../server/scores/store.ts';
import { readDescription } from '../../support/directory.ts';
import { bearer, givenTenant, catalogForSuite, type Tenant, type TestCatalog } from '../../support/catalog.ts';
import { Receiver } from './receiver.ts';

const FAST = { WEBHOOK_ALLOW_PRIVATE: 'on', WEBHOOK_POLL_MS: '50', WEBHOOK_RETRY_BASE_MS: '50', WEBHOOK_RETRY_MAX_MS: '200', LINT: 'on', SCORES: 'on' };
const WEATHER = 'interzoid.com/getweatherzip.json';
type Doc = Record<string, any>;

/** The description without its operations' and parameters' descriptions: more lint warnings, a lower documentation subscore. */
function undocumented(document: Doc): Doc {
  const copy = structuredClone(document);
  for (const item of Object.values(copy['paths'] as Record<string, Doc>)) {
    for (const operation of Object.values(item)) {
      delete operation['description'];
      delete operation['summary'];
      for (const parameter of operation['parameters'] ?? []) delete parameter['description'];
    }
  }
  return copy;
}

describe('change events: lint, score and lifecycle changes', function () {
  this.timeout(120_000);
  let service: TestCatalog;
  let receiver: Receiver;

  catalogForSuite((made) => ({ service } = made), FAST);
  before(async () => {
    receiver = await new Receiver().start();
    service.runtime.events.worker.start();
  });
  after(async () => {
    await service.runtime.events.worker.stop();
    await receiver.stop();
  });

  async function subscribe(tenant: Tenant, types: string[]): Promise<string> {
    const res = await service.request.post(`/v2/catalog/projects/${tenant.project.slug}/subscriptions`).set(bearer(tenant.key)).send({ url: receiver.url, types });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.secret as string;
  }

  async function imported(tenant: Tenant, document: Doc): Promise<string> {
    const res = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=weather`).set(bearer(tenant.key)).send(document);
    expect(res.status, JSON.stringify(res.body)).to.be.oneOf([200, 201]);
    return res.body.service?.id ?? res.body.serviceId ?? res.body.id;
  }

  /** Once the lints and cards the writes owe are made, and every event of the tenant's is delivered (the worker runs behind). */
  async function settled(tenant: Tenant): Promise<void> {
    const { lints, scorer, events } = service.runtime;
    for (let round = 0; round < 3; round++) {
      await lints.idle();
      await scorer.settled();
    }
    const undelivered = () => events.outbox.jobs.countDocuments({ projectId: tenant.project.id, state: { $in: ['pending', 'ready'] } });
    for (let left = await undelivered(); left > 0; left = await undelivered()) await new Promise((resolve) => setTimeout(resolve, 50));
  }

  const of = (tenant: Tenant) => () => receiver.accepted.filter(({ event }) => event.data['projectId'] === tenant.project.id);

  it('sends lint_changed and score_changed, signed, when a re-import changes the counts and the score, none when it changes nothing', async () => {
    const tenant = await givenTenant(service);
    const secret = await subscribe(tenant, ['catalog.service.lint_changed', 'catalog.service.score_changed']);
    const received = of(tenant);
    const document = readDescription(WEATHER) as Doc;
    await imported(tenant, document);
    await settled(tenant);
    await receiver.until(() => received().some(({ event }) => event.type === 'catalog.service.lint_changed') && received().some(({ event }) => event.type === 'catalog.service.score_changed'));
    const first = received().map(({ event }) => event);
    const firstLint = first.find(({ type }) => type === 'catalog.service.lint_changed')!;
    expect(firstLint.data['counts']['before']).to.equal(null);
    const serviceId = firstLint.subject;
    const services = `/v2/catalog/versions/${tenant.version.id}/services/${serviceId}`;

    await imported(tenant, document);
    await settled(tenant);
    expect(received().map(({ event }) => event.id), 'an unchanged re-import').to.deep.equal(first.map(({ id }) => id));
    // A new info.version: linted and scored again, to the same counts and score.
    const linted = (await service.request.get(`${services}/lint`).set(bearer(tenant.readOnlyKey))).body.computedAt;
    await imported(tenant, { ...document, info: { ...document['info'], version: '1.0.1' } });
    await settled(tenant);
    expect((await service.request.get(`${services}/lint`).set(bearer(tenant.readOnlyKey))).body.computedAt).to.not.equal(linted);
    expect(received().map(({ event }) => event.id), 'a re-import changing neither').to.deep.equal(first.map(({ id }) => id));

    await imported(tenant, undocumented(document));
    await settled(tenant);
    await receiver.until(() => received().filter(({ event }) => event.type === 'catalog.service.lint_changed').length === 2);
    await settled(tenant);
    const events = received().map(({ event }) => event);
    const lint = events.filter(({ type }) => type === 'catalog.service.lint_changed').at(-1)!;
    expect(lint).to.include({ subject: serviceId });
    expect(lint.data['service']).to.deep.equal({ id: serviceId, slug: 'weather' });
    expect(lint.data['counts']['before']).to.deep.equal(firstLint.data['counts']['after']);
    expect(lint.data['counts']['after']['warn']).to.be.greaterThan(lint.data['counts']['before']['warn']);
    expect(lint.data['links']).to.deep.equal({ lint: `${services}/lint`, score: `${services}/score` });
    const report = await service.request.get(lint.data['links']['lint']).set(bearer(tenant.readOnlyKey));
    expect(report.body.counts).to.deep.equal(lint.data['counts']['after']);

    const scores = events.filter(({ type }) => type === 'catalog.service.score_changed');
    const before = first.filter(({ type }) => type === 'catalog.service.score_changed').at(-1)!;
    const after = scores.at(-1)!;
    expect(after.id).to.not.equal(before.id);
    expect(after.data['score']['after']).to.be.lessThan(before.data['score']['after']);
    // Each card's score is the next one's before: none was missed or sent twice.
    expect(scores[0]!.data['score']['before']).to.equal(null);
    expect(scores.map(({ data }) => data['score']['before']).slice(1)).to.deep.equal(scores.map(({ data }) => data['score']['after']).slice(0, -1));
    const card = await service.request.get(after.data['links']['score']).set(bearer(tenant.readOnlyKey));
    expect(card.status).to.equal(200);
    expect(card.body.score).to.equal(after.data['score']['after']);

    for (const { headers, body, event } of received()) {
      expect(new Webhook(secret).verify(body, headers)).to.deep.equal(JSON.parse(body));
      expect(headers['webhook-id']).to.equal(event.id);
      expect(event).to.include({ specversion: '1.0', source: `/v2/catalog/projects/${tenant.project.id}` });
    }
  });

  it('takes a lint or score event\'s write as committed once its document was stamped at or after the event', async () => {
    const { database, stores, tenancy, scorer } = service.runtime;
    const sources = { db: database.db, stores, versions: tenancy.versions, revisions: tenancy.revisions };
    const versionId = `ver_${'7'.repeat(26)}`;
    const serviceId = `svc_${'7'.repeat(26)}`;
    const check = { kind: 'document', collection: SCORES_COLLECTION, id: `${versionId}:${serviceId}`, field: 'computedAt', since: new Date().toISOString() } as const;
    expect(await verdictOf(check, sources), 'no card').to.equal('not yet');
    await scorer.store.mark(versionId, serviceId);
    expect(await verdictOf(check, sources), 'marked, not made').to.equal('not yet');
    await database.db.collection(SCORES_COLLECTION).updateOne({ _id: check.id as never }, { $set: { computedAt: new Date(Date.parse(check.since) - 1000) } });
    expect(await verdictOf(check, sources), 'an older card').to.equal('not yet');
    await database.db.collection(SCORES_COLLECTION).updateOne({ _id: check.id as never }, { $set: { computedAt: new Date() } });
    expect(await verdictOf(check, sources)).to.equal('committed');
  });

  it('sends lifecycle_changed when a re-import changes info.x-lifecycle, none when it keeps it', async () => {
    const tenant = await givenTenant(service);
    await subscribe(tenant, ['catalog.service.lifecycle_changed']);
    const received = of(tenant);
    const stage = (lifecycle: string | undefined) => {
      const document = structuredClone(readDescription(WEATHER)) as Doc;
      if (lifecycle !== undefined) document['info']['x-lifecycle'] = lifecycle;
      return document;
    };
    await imported(tenant, stage('production'));
    await imported(tenant, stage('production'));
    // No x-lifecycle: the stage is kept, no change.
    await imported(tenant, stage(undefined));
    await imported(tenant, stage('deprecated'));
    await receiver.until(() => received().length >= 1);
    await settled(tenant);
    const events = received().map(({ event }) => event);
    expect(events.map(({ type, data }) => [type, data['from'], data['to']])).to.deep.equal([['catalog.service.lifecycle_changed', 'production', 'deprecated']]);
    expect(events[0]!.data['service']).to.include({ slug: 'weather' });
    expect(events[0]!.data['links']['service']).to.equal(`/v2/catalog/versions/${tenant.version.id}/services/${events[0]!.subject}`);
  });
});
