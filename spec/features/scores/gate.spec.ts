// The import's score gate and the dry run's score: `minScore` refuses (409, nothing written) an
// import that would score less, with the score and failing subscores as details; a dry run
// reports the score before and after, where the catalog scores (SCORES=off: none; the gate still
// scores). A real description (CircleCI), then one of its summaries removed by hand.
import { expect } from 'chai';
import { readDescription } from '../../support/directory.ts';
import { bearer, givenTenant, startCatalog, type Tenant, type TestCatalog } from '../../support/catalog.ts';

describe('scores: the import gate (minScore) and the dry run', function () {
  this.timeout(120_000);
  let service: TestCatalog;
  let tenant: Tenant;
  const circleci = readDescription('circleci.com.json');

  before(async () => {
    service = await startCatalog({ SCORES: 'on' });
    tenant = await givenTenant(service);
  });
  after(() => service.close());

  const importing = (query: string, document: object = circleci) => service.request.post(`${tenant.prefixes.byAddress}/imports/openapi?service=circleci&${query}`).set(bearer(tenant.key)).send(document);

  it('refuses with 409 below minScore, the score and each failing subscore with its fixes as details, writing nothing', async () => {
    const dryRun = await importing('dryRun=true');
    expect(dryRun.status, JSON.stringify(dryRun.body).slice(0, 500)).to.equal(200);
    const { after } = dryRun.body.score;
    expect(dryRun.body.score.before).to.equal(undefined);
    const refused = await importing(`minScore=${after.score + 1}`);
    expect(refused.status, JSON.stringify(refused.body)).to.equal(409);
    expect(refused.body.details[0]).to.deep.equal({ field: 'score', message: `the service would score ${after.score}, below minScore ${after.score + 1}` });
    const documentation = refused.body.details.find((detail: { field: string }) => detail.field === 'subscores/documentation');
    expect(documentation.message).to.match(new RegExp(`^documentation ${after.subscores.documentation}: .*add a summary of two words or more \\(\\d+ operations\\)`));
    const services = await service.request.get(`${tenant.prefixes.byAddress}/services`).set(bearer(tenant.key));
    expect(services.body.items, 'nothing written').to.have.length(0);
  });

  it('imports at or above minScore, and a dry run of a worse document reports the score before, after and the delta', async () => {
    const dryRun = await importing('dryRun=true');
    const written = await importing(`minScore=${dryRun.body.score.after.score}`);
    expect(written.status, JSON.stringify(written.body)).to.equal(201);
    await service.runtime.scorer.settled();
    const worse = structuredClone(circleci) as { paths: Record<string, Record<string, { summary?: string; description?: string }>> };
    for (const item of Object.values(worse.paths)) for (const operation of Object.values(item)) delete operation.description;
    const again = await importing('dryRun=true', worse);
    expect(again.status, JSON.stringify(again.body)).to.equal(200);
    const { before, after, delta } = again.body.score;
    expect(before.score).to.be.a('number');
    expect(after.subscores.documentation).to.be.below(before.subscores.documentation);
    expect(delta).to.equal(after.score - before.score);
    expect(delta).to.be.below(0);
  });

  it('refuses a minScore that is not an integer from 0 to 100', async () => {
    const res = await importing('minScore=101');
    expect(res.status).to.equal(400);
    expect(JSON.stringify(res.body.details)).to.contain('must be an integer from 0 to 100');
  });
});

describe('scores: under SCORES=off a dry run scores nothing, and minScore still gates', function () {
  this.timeout(120_000);
  let service: TestCatalog;
  let tenant: Tenant;
  const circleci = readDescription('circleci.com.json');

  before(async () => {
    service = await startCatalog({ SCORES: 'off' });
    tenant = await givenTenant(service);
  });
  after(() => service.close());

  const importing = (query: string) => service.request.post(`${tenant.prefixes.byAddress}/imports/openapi?service=circleci&${query}`).set(bearer(tenant.key)).send(circleci);

  it('answers a dry run without `score`, and refuses below minScore with the score it computed for the gate', async () => {
    const dryRun = await importing('dryRun=true');
    expect(dryRun.status, JSON.stringify(dryRun.body).slice(0, 500)).to.equal(200);
    expect(dryRun.body).to.not.have.property('score');
    expect(dryRun.body.records, 'the plan is answered').to.be.an('object');
    const refused = await importing('minScore=100');
    expect(refused.status, JSON.stringify(refused.body).slice(0, 500)).to.equal(409);
    expect(refused.body.details[0].field).to.equal('score');
  });
});
