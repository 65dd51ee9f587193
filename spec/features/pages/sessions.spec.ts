// Sign-in, sessions and sign-out of the pages, without a browser: what the cookie holds and what
// the database keeps, the form token and Origin checks, sign-out ending the session on the
// server, and a revoked key or an expired token closing the pages.
import { expect } from 'chai';
import supertest from 'supertest';
import { PAGE_SESSIONS_COLLECTION } from '../../../server/pages/sessions.ts';
import { catalogForSuite, tokenFor, type TestCatalog, type Tenant } from '../../support/catalog.ts';
import { formOf, signIn } from './sign-in.ts';

describe('pages: sign-in and sessions', function () {
  this.timeout(60_000);
  let service: TestCatalog;
  let tenant: Tenant;
  // Keys are checked against the database on every request here, so a revocation shows at once.
  catalogForSuite((made) => ({ service, tenant } = made), { API_KEY_CACHE_MS: '0' });

  it('sends a browser at / to the pages, and a signed-out one on to sign-in; programs get / as before', async () => {
    const app = service.app;
    const browser = await supertest(app).get('/').set('Accept', 'text/html,application/xhtml+xml,*/*;q=0.8');
    expect([browser.status, browser.headers['location']]).to.deep.equal([303, '/catalog']);
    const program = await supertest(app).get('/').set('Accept', 'application/json');
    expect([program.status, program.body]).to.deep.equal([404, { error: 'Not found' }]);
    const home = await supertest(app).get('/catalog').set('Accept', 'text/html');
    expect([home.status, home.headers['location']]).to.deep.equal([303, '/sign-in?next=%2Fcatalog']);
  });

  it('holds only a random session id in an HttpOnly SameSite cookie, and the database only its hash and the sealed credential', async () => {
    const { setCookie, cookie } = await signIn(service.app, tenant.key);
    expect(setCookie).to.match(/HttpOnly/i).and.to.match(/SameSite=Lax/i).and.to.match(/Max-Age=28800/);
    expect(setCookie).not.to.include(tenant.key);
    const id = cookie.split('=')[1]!;
    const stored = await service.runtime.database.db.collection(PAGE_SESSIONS_COLLECTION).find({}).toArray();
    const text = JSON.stringify(stored);
    expect(text).not.to.include(tenant.key);
    expect(text).not.to.include(id);
    expect(stored.some((session) => session['expiresAt'] instanceof Date)).to.equal(true);
  });

  it('marks the cookie Secure behind HTTPS', async () => {
    const { nonceCookie, signInToken } = await formOf(service.app);
    const res = await supertest(service.app).post('/sign-in').set('Cookie', nonceCookie).set('X-Forwarded-Proto', 'https')
      .type('form').send({ signInToken, credential: tenant.key });
    expect(res.status).to.equal(303);
    expect(String(res.headers['set-cookie'])).to.match(/catalog_session=[^;]+;.*Secure/);
  });

  it('refuses a sign-in without the form token, or from another origin, and a wrong credential', async () => {
    const { nonceCookie, signInToken } = await formOf(service.app);
    const post = () => supertest(service.app).post('/sign-in').type('form');
    const noToken = await post().set('Cookie', nonceCookie).send({ credential: tenant.key });
    const noNonce = await post().send({ signInToken, credential: tenant.key });
    const foreign = await post().set('Cookie', nonceCookie).set('Origin', 'https://evil.example').send({ signInToken, credential: tenant.key });
    const crossSite = await post().set('Cookie', nonceCookie).set('Sec-Fetch-Site', 'cross-site').send({ signInToken, credential: tenant.key });
    const wrong = await post().set('Cookie', nonceCookie).send({ signInToken, credential: 'catk_not-a-key' });
    expect([noToken.status, noNonce.status, foreign.status, crossSite.status, wrong.status]).to.deep.equal([403, 403, 403, 403, 401]);
    for (const res of [noToken, noNonce, foreign, crossSite, wrong]) {
      expect(String(res.headers['set-cookie'] ?? '')).not.to.include('catalog_session=');
      expect(res.text).not.to.include(tenant.key);
    }
  });

  it('signs out only with the session form token from this origin, and ends the session on the server', async () => {
    const { cookie, formToken } = await signIn(service.app, tenant.key);
    const out = () => supertest(service.app).post('/sign-out').set('Cookie', cookie).type('form');
    expect((await out().send({})).status).to.equal(403);
    expect((await out().set('Origin', 'https://evil.example').send({ formToken })).status).to.equal(403);
    const signedOut = await out().send({ formToken });
    expect([signedOut.status, signedOut.headers['location']]).to.deep.equal([303, '/sign-in']);
    // The old cookie, replayed, opens nothing.
    const again = await supertest(service.app).get('/catalog').set('Cookie', cookie).set('Accept', 'text/html');
    expect(again.status).to.equal(303);
    expect(again.headers['location']).to.match(/^\/sign-in/);
  });

  it('closes the pages once the key is revoked, and once a token expires', async () => {
    const { apiKey, secret } = await service.runtime.tenancy.apiKeys.create(tenant.project.id, true);
    const byKey = await signIn(service.app, secret);
    await service.runtime.tenancy.apiKeys.revoke(apiKey.id);
    const revoked = await supertest(service.app).get('/catalog').set('Cookie', byKey.cookie).set('Accept', 'text/html');
    expect(revoked.status).to.equal(303);

    // JWT times are whole seconds: a token of 1 s may have a millisecond left when made, and a
    // sign-in on a loaded machine outlived it. This one lives 2 to 3 s.
    const token = tokenFor([tenant.project.id], { readOnly: true, expiresInSeconds: 3 });
    const byToken = await signIn(service.app, token);
    await new Promise((resolve) => setTimeout(resolve, 3100));
    const expired = await supertest(service.app).get('/catalog').set('Cookie', byToken.cookie).set('Accept', 'text/html');
    expect(expired.status).to.equal(303);
  });

  it('never puts the credential in a page, and answers agents without a session 401', async () => {
    const { cookie } = await signIn(service.app, tenant.key);
    const home = await supertest(service.app).get('/catalog').set('Cookie', cookie).set('Accept', 'text/html');
    expect(home.text).not.to.include(tenant.key);
    expect(home.headers['content-security-policy']).to.include("script-src 'self'").and.not.to.include('unsafe-inline');
    const agent = await supertest(service.app).get('/catalog').set('Accept', 'text/markdown');
    expect(agent.status).to.equal(401);
  });
});
