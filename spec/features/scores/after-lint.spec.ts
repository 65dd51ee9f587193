// A lint stored moves only the security subscore (OWASP findings take points off): the card made
// again after it asks none of the probes its card before asked of the same index (GitHub's 1,200
// probes are most of its card's time), and equals a card made with every probe asked again; on a
// newer index (another service imported) they are asked again.
import { expect } from 'chai';
import { scoreCard } from '../../../server/scores/card.ts';
import { storedServiceRecords } from '../../../server/scores/records.ts';
import { readDescription } from '../../support/directory.ts';
import { bearer, givenTenant, startCatalog, type Tenant, type TestCatalog } from '../../support/catalog.ts';

describe('scores: the card made again after its lint', function () {
  this.timeout(180_000);
  let service: TestCatalog;
  let tenant: Tenant;
  let serviceId: string;

  before(async () => {
    service = await startCatalog({ SCORES: 'on', LINT: 'on' });
    tenant = await givenTenant(service);
    const res = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=circleci`).set(bearer(tenant.key)).send(readDescription('circleci.com.json'));
    expect(res.status, JSON.stringify(res.body).slice(0, 500)).to.equal(201);
    serviceId = res.body.service.id;
    await service.runtime.lints.idle();
    await service.runtime.scorer.settled();
  });
  after(() => service.close());

  /** The stored card of CircleCI equals one made now with every probe asked. */
  async function expectAsAskedAnew(): Promise<void> {
    const { lints, stores, searchIndexes } = service.runtime;
    const findings = (await lints.findingsOf(tenant.version.id, serviceId))?.findings;
    expect(findings?.some((finding) => finding.code.startsWith('owasp:')), 'OWASP findings to take points off').to.equal(true);
    const stored = (await service.request.get(`${tenant.prefixes.byId}/services/circleci/score`).set(bearer(tenant.readOnlyKey))).body;
    const asked = await scoreCard({ records: (await storedServiceRecords(stores, tenant.version.id, serviceId))!, index: await searchIndexes.of(tenant.version.id), findings: findings! });
    const scores = (operations: Array<{ id: string; score: number; subscores: object; probes: object[] }>) => operations.map(({ id, score, subscores, probes }) => ({ id, score, subscores, probes }));
    expect(scores(stored.operations)).to.deep.equal(scores(asked.operations));
    expect(stored.score).to.equal(asked.score);
  }

  it('asks no probe again on the index of the card before, and equals a card made with every probe asked', async () => {
    expect(service.runtime.scorer.reusedProbes, 'the card after the lint reused the probes of the card after the import').to.be.at.least(1);
    await expectAsAskedAnew();
  });

  it('asks them again on a newer index: a twin imported beside it ties every probe', async () => {
    const res = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=circleci-twin`).set(bearer(tenant.key)).send(readDescription('circleci.com.json'));
    expect(res.status, JSON.stringify(res.body).slice(0, 500)).to.equal(201);
    await service.runtime.lints.idle();
    await service.runtime.scorer.settled();
    await expectAsAskedAnew();
  });
});
