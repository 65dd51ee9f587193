import { expect } from 'chai';
import { serviceForSuite, bearer, givenTenant, startService, tokenFor, type Tenant, type TestService } from '../support/service.ts';

describe('Rate limits', () => {
  describe('with RATE_LIMIT_MAX=3', () => {
    let service: TestService;
    let tenant: Tenant;

    serviceForSuite((made) => ({ service, tenant } = made), { RATE_LIMIT: 'on', RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_MS: '60000' });

    it('answers 429 with the error shape and Retry-After once a credential is over its limit', async () => {
      const list = () => service.request.get(`${tenant.prefixes.V}/paths`).set(bearer(tenant.key));
      for (let i = 0; i < 3; i++) expect((await list()).status).to.equal(200);
      const res = await list();
      expect(res.status).to.equal(429);
      expect(res.body).to.deep.equal({ error: 'Too many requests' });
      const retryAfter = Number(res.headers['retry-after']);
      expect(retryAfter).to.be.within(1, 60);
    });

    it('counts each credential apart: another key and a token of the same project still pass', async () => {
      expect((await service.request.get(`${tenant.prefixes.P}/paths`).set(bearer(tenant.readOnlyKey))).status).to.equal(200);
      expect((await service.request.get(`${tenant.prefixes.P}/paths`).set(bearer(tokenFor([tenant.project.id])))).status).to.equal(200);
    });

    it('counts failed authentications by address, so guessing is limited too', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        statuses.push((await service.request.get(`${tenant.prefixes.V}/paths`).set(bearer(`catk_guess${i}`))).status);
      }
      expect(statuses).to.deep.equal([401, 401, 401, 429, 429]);
    });
  });

  it('is off with RATE_LIMIT=off', async () => {
    const service = await startService({ RATE_LIMIT: 'off', RATE_LIMIT_MAX: '1' });
    try {
      const tenant = await givenTenant(service);
      for (let i = 0; i < 4; i++) {
        expect((await service.request.get(`${tenant.prefixes.V}/paths`).set(bearer(tenant.key))).status).to.equal(200);
      }
    } finally {
      await service.close();
    }
  });
});
