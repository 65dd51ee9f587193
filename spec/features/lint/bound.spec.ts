// Lint is bounded in time (LINT_TIMEOUT_MS): a 4.5 KB description whose schemas name one another
// nine times over eight levels makes Spectral walk a 9^8 tree of references, which would hold
// the lint thread for hours. Past the bound the thread is stopped and the answers say so: the
// stored report, the dry run, the gate, the page; a dry run of the description as stored answers
// with that stop at once; and the next service's lint runs as usual.
import { expect } from 'chai';
import { bearer, givenTenant, startCatalog, type Tenant, type TestCatalog } from '../../support/catalog.ts';
import { built } from '../descriptions/expanding.ts';
import { petstore } from '../descriptions/petstore.ts';

const BOUND_MS = 2_000;

describe('lint: bounded in time', function () {
  this.timeout(120_000);
  let service: TestCatalog;
  let tenant: Tenant;
  const references = built({ name: 'references', section: 'schemas', levels: 8, fanOut: 9 });
  const importing = (query: string) => service.request.post(`${tenant.prefixes.byId}/imports/openapi?${query}`)
    .set(bearer(tenant.key)).set('Content-Type', references.type).send(references.text);
  const lintOf = async (slug: string) => {
    await service.runtime.lints.idle();
    const res = await service.request.get(`${tenant.prefixes.byAddress}/services/${slug}/lint`).set(bearer(tenant.readOnlyKey));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body as { status: string; timedOutAfterMs?: number; findings?: unknown[]; counts?: Record<string, number> };
  };

  before(async () => {
    service = await startCatalog({ LINT: 'on', LINT_TIMEOUT_MS: String(BOUND_MS) });
    tenant = await givenTenant(service);
  });
  after(() => service.close());

  it('a dry run answers with the lint stopped at the bound, nothing known of its findings', async () => {
    expect(references.text.length).to.be.below(6_000);
    const res = await importing('service=references&dryRun=true');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.lint).to.deep.equal({ counts: { error: 0, warn: 0, info: 0, hint: 0 }, new: [], fixed: [], timedOutAfterMs: BOUND_MS });
  });

  it('the gate refuses (409) what it cannot lint within the bound, and writes nothing', async () => {
    const res = await importing('service=references&failOn=lint-error');
    expect(res.status, JSON.stringify(res.body)).to.equal(409);
    expect(res.body.details[0].message).to.match(/^lint-timeout: the lint was stopped after 2000 ms \(LINT_TIMEOUT_MS\)/);
    const services = await service.request.get(`${tenant.prefixes.byId}/services`).set(bearer(tenant.key));
    expect(services.body.items.map((item: { slug: string }) => item.slug)).to.not.include('references');
  });

  it('the import is written, and its lint is stored as stopped at the bound, on the interface and the page', async () => {
    const res = await importing('service=references');
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const lint = await lintOf('references');
    expect(lint).to.include({ status: 'timed-out', timedOutAfterMs: BOUND_MS });
    expect(lint.findings).to.equal(undefined);
    const page = `/catalog/${tenant.project.slug}/${tenant.version.type}/${tenant.version.slug}/services/references`;
    const html = await service.request.get(page).set(bearer(tenant.readOnlyKey)).set('Accept', 'text/html');
    expect(html.status).to.equal(200);
    expect(html.text).to.contain('The last lint was stopped after 2 s');
    const markdown = await service.request.get(page).set(bearer(tenant.readOnlyKey)).set('Accept', 'text/markdown');
    expect(markdown.text).to.contain('The last lint was stopped after 2 s (`LINT_TIMEOUT_MS`): no findings are known.');
  });

  it('a dry run of the description as stored answers with its stored stop at once, marked unchanged; so does the gate', async () => {
    const res = await importing('service=references&dryRun=true');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.lint).to.deep.equal({ counts: { error: 0, warn: 0, info: 0, hint: 0 }, new: [], fixed: [], timedOutAfterMs: BOUND_MS, unchanged: true });
    const gated = await importing('service=references&failOn=lint-error');
    expect(gated.status, JSON.stringify(gated.body)).to.equal(409);
    expect(gated.body.details[0].message).to.match(/^lint-timeout: the lint was stopped after 2000 ms/);
  });

  it('a dry run waiting for its turn while another is stopped at the bound still gets its lint', async () => {
    // The second is sent once the first is linting, so that it waits its turn behind it. The
    // first is of a service with no stored lint, so that it is linted.
    const first = importing('service=references-again&dryRun=true').then((res) => res);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const second = service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=petstore&dryRun=true`).set(bearer(tenant.key)).send(petstore()).then((res) => res);
    const [stopped, waiting] = await Promise.all([first, second]);
    expect(stopped.body.lint.timedOutAfterMs).to.equal(BOUND_MS);
    expect(waiting.status, JSON.stringify(waiting.body)).to.equal(200);
    expect(waiting.body.lint.timedOutAfterMs).to.equal(undefined);
    expect(waiting.body.lint.new.length).to.be.above(0);
  });

  it('the thread is free again: the next service is linted as usual', async () => {
    const res = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=petstore`).set(bearer(tenant.key)).send(petstore());
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const lint = await lintOf('petstore');
    expect(lint.status).to.equal('current');
    expect(lint.findings!.length).to.be.above(0);
  });
});

describe('lint: a dry run never waits behind the lints run after writes', function () {
  this.timeout(120_000);
  let service: TestCatalog;
  let tenant: Tenant;

  before(async () => {
    // Long enough that the description of references holds the thread behind the writes throughout.
    service = await startCatalog({ LINT: 'on', LINT_TIMEOUT_MS: '30000' });
    tenant = await givenTenant(service);
  });
  after(() => service.close());

  it('lints the dry run on a thread of its own while the last write\'s lint still runs', async () => {
    const references = built({ name: 'references', section: 'schemas', levels: 8, fanOut: 9 });
    const written = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=references`).set(bearer(tenant.key)).set('Content-Type', references.type).send(references.text);
    expect(written.status, JSON.stringify(written.body)).to.equal(201);
    const dry = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=petstore&dryRun=true`).set(bearer(tenant.key)).send(petstore());
    expect(dry.status, JSON.stringify(dry.body)).to.equal(200);
    expect(dry.body.lint.timedOutAfterMs).to.equal(undefined);
    expect(dry.body.lint.new.length).to.be.above(0);
    const behind = await service.runtime.lints.findingsOf(tenant.version.id, written.body.service.id);
    expect(behind?.pending, 'the write\'s lint is still running').to.equal(true);
  });
});
