// Work a write starts and does not wait for (its service's lint and score card, the search index
// built behind it, a round of event delivery) runs outside that request's database budget. It
// outlives the answer; under the request's deadline every call it made once those seconds were
// spent was refused, and a queue it had begun draining failed each later job too ("lint failed:
// the request's database budget ran out after 13441 ms"). Each is started here inside a request's
// budget that refuses every call once the request is answered, as a spent deadline does.
import { expect } from 'chai';
import { loadConfig } from '../../server/config.ts';
import { ServiceUnavailable } from '../../server/errors.ts';
import { ChangeEvents } from '../../server/events/change-events.ts';
import { SearchIndexes } from '../../server/search/indexes.ts';
import { budgeted, withinBudget, type Budget } from '../../server/store/budget.ts';
import { testDatabase } from '../support/database.ts';
import { readDescription } from '../support/directory.ts';
import { bearer, catalogForSuite, givenTenant, type Tenant, type TestCatalog } from '../support/catalog.ts';

/** Runs `start` as a request would, then answers: every database call made after that is refused. */
async function startedByARequest(start: () => Promise<unknown> | void): Promise<void> {
  let answered = false;
  const request: Budget = {
    callMs: (call) => {
      if (answered) throw new ServiceUnavailable(`the request was answered; ${call} was not sent`);
      return 15_000;
    },
  };
  await withinBudget(request, async () => {
    await start();
  });
  answered = true;
}

describe('work behind a write\'s answer', function () {
  this.timeout(120_000);
  let service: TestCatalog;
  let tenant: Tenant;
  let serviceId: string;

  catalogForSuite((made) => ({ service } = made), { LINT: 'on', SCORES: 'on' });
  before(async () => {
    tenant = await givenTenant(service);
    const res = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=weather`).set(bearer(tenant.key)).send(readDescription('interzoid.com/getweatherzip.json'));
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    serviceId = res.body.service.id;
    await service.runtime.lints.idle();
    await service.runtime.scorer.settled();
  });

  describe('a lint owed by a request', () => {
    it('is run and stored after the request is answered', async () => {
      const { lints } = service.runtime;
      const before = await lints.findingsOf(tenant.version.id, serviceId);
      await startedByARequest(() => lints.request(tenant.project.id, tenant.version.id, serviceId));
      await lints.idle();
      const after = await lints.findingsOf(tenant.version.id, serviceId);
      // Owed anew by the request, then settled: a lint that failed would have left it pending.
      expect(after?.requestedAt).to.not.deep.equal(before?.requestedAt);
      expect(after?.pending).to.equal(false);
    });
  });

  describe('a score card a request marked', () => {
    it('is made after the request is answered', async () => {
      const { scorer } = service.runtime;
      const made = scorer.made;
      await startedByARequest(() => scorer.recompute(tenant.version.id, serviceId));
      await scorer.settled();
      expect(scorer.made).to.be.greaterThan(made);
      const card = await service.request.get(`${tenant.prefixes.byId}/services/${serviceId}/score`).set(bearer(tenant.readOnlyKey));
      expect(card.status, JSON.stringify(card.body)).to.equal(200);
      expect(card.body.pending).to.equal(false);
    });
  });

  describe('the search index a write builds behind its answer', () => {
    it('is built after the request is answered, and a search joins it', async () => {
      // A process that holds no index of the version yet: the write leaves it to be built.
      const indexes = new SearchIndexes(service.runtime.stores, service.runtime.tenancy.revisions, { log: () => {} });
      await startedByARequest(() => indexes.imported(tenant.version.id, undefined));
      const index = await indexes.of(tenant.version.id);
      expect(index.size).to.be.greaterThan(0);
      expect(indexes.built.whole).to.equal(1);
    });
  });

  describe('a round of event delivery a write wakes', () => {
    it('runs after the request is answered, and the timer it leaves runs the next', async () => {
      const config = loadConfig({ MONGODB_URI: testDatabase().uri, JWT_SECRET: 'behind-answers-'.repeat(4), WEBHOOK_POLL_MS: '20' });
      const failures: string[] = [];
      const db = budgeted(testDatabase().db, 60_000);
      const events = new ChangeEvents(db, { stores: service.runtime.stores, versions: service.runtime.tenancy.versions, revisions: service.runtime.tenancy.revisions }, config.webhooks, (message) => failures.push(message));
      await startedByARequest(() => events.worker.start());
      // A few rounds: the first, woken by the request, and those its timer starts.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await events.worker.stop();
      expect(failures).to.deep.equal([]);
    });
  });
});
