import { expect } from 'chai';
import supertest from 'supertest';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { catalogForSuite, bearer, givenTenant, startCatalog, tokenFor, type Tenant, type TestCatalog } from '../support/catalog.ts';
import { callTool, mcpAgents, type McpAgents } from '../support/mcp.ts';
import { formOf } from './pages/sign-in.ts';

describe('Rate limits', () => {
  describe('with RATE_LIMIT_MAX=3', () => {
    let service: TestCatalog;
    let tenant: Tenant;

    catalogForSuite((made) => ({ service, tenant } = made), { RATE_LIMIT: 'on', RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_MS: '60000' });

    it('answers 429 with the error shape and Retry-After once a credential is over its limit', async () => {
      const list = () => service.request.get(`${tenant.prefixes.byId}/paths`).set(bearer(tenant.key));
      for (let i = 0; i < 3; i++) expect((await list()).status).to.equal(200);
      const res = await list();
      expect(res.status).to.equal(429);
      expect(res.body).to.deep.equal({ error: 'Too many requests' });
      const retryAfter = Number(res.headers['retry-after']);
      expect(retryAfter).to.be.within(1, 60);
    });

    it('counts each credential apart: another key and a token of the same project still pass', async () => {
      expect((await service.request.get(`${tenant.prefixes.byAddress}/paths`).set(bearer(tenant.readOnlyKey))).status).to.equal(200);
      expect((await service.request.get(`${tenant.prefixes.byAddress}/paths`).set(bearer(tokenFor([tenant.project.id])))).status).to.equal(200);
    });

    it('counts failed authentications by address, so guessing is limited too', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        statuses.push((await service.request.get(`${tenant.prefixes.byId}/paths`).set(bearer(`catk_guess${i}`))).status);
      }
      expect(statuses).to.deep.equal([401, 401, 401, 429, 429]);
    });
  });

  describe('MCP with RATE_LIMIT_MAX=5: each message of a batch counts', () => {
    let service: TestCatalog;
    let tenant: Tenant;
    catalogForSuite((made) => ({ service, tenant } = made), { RATE_LIMIT: 'on', RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW_MS: '60000' });

    const MCP_ACCEPT = 'application/json, text/event-stream';
    const calls = (count: number) => Array.from({ length: count }, (_, i) => ({
      jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: 'list_projects', arguments: {} },
    }));
    const batch = (token: string, count: number) => service.request.post('/mcp').set(bearer(token)).set('Accept', MCP_ACCEPT).send(calls(count));

    it('refuses a batch of 100 calls whole, with the 429 of the interface', async () => {
      const res = await batch(tokenFor([tenant.project.id], { subject: 'batch-of-100' }), 100);
      expect(res.status, res.text).to.equal(429);
      expect(res.body).to.deep.equal({ error: 'Too many requests' });
      expect(Number(res.headers['retry-after'])).to.be.within(1, 60);
    });

    it('answers a batch that fits, and refuses the next one that does not', async () => {
      const token = tokenFor([tenant.project.id], { subject: 'batch-that-fits' });
      const fits = await batch(token, 4);
      expect(fits.status, fits.text).to.equal(200);
      expect(fits.body).to.have.length(4);
      expect(fits.body.map((answer: { result?: { isError?: boolean } }) => answer.result?.isError ?? false)).to.deep.equal([false, false, false, false]);
      // 4 counted, 1 left: two calls are one too many.
      expect((await batch(token, 2)).status).to.equal(429);
    });

    describe('an agent of the SDK client', () => {
      let agents: McpAgents;
      before(async () => { agents = await mcpAgents(service); });
      after(() => agents.close());

      it('meets the 429 as an HTTP error once its credential is over', async () => {
        const token = tokenFor([tenant.project.id], { subject: 'sdk-agent' });
        // Connecting is three requests (initialize, the initialized notification, tools/list).
        const client = await agents.connect(token);
        await callTool(client, 'list_projects', {});
        await callTool(client, 'list_projects', {});
        const refused = await callTool(client, 'list_projects', {}).then(() => null, (error: unknown) => error);
        expect(refused).to.be.instanceOf(StreamableHTTPError);
        expect((refused as StreamableHTTPError).code).to.equal(429);
      });
    });
  });

  describe('sign-in to the pages with RATE_LIMIT_MAX=5', () => {
    let service: TestCatalog;
    let tenant: Tenant;
    catalogForSuite((made) => ({ service, tenant } = made), { RATE_LIMIT: 'on', RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW_MS: '60000' });

    it('counts wrong credentials against the client address, as the interface does', async () => {
      const { nonceCookie, signInToken } = await formOf(service.app);
      const attempt = (credential: string) => supertest(service.app).post('/sign-in').set('Cookie', nonceCookie)
        .set('Origin', 'http://catalog.test').set('Host', 'catalog.test').set('Accept', 'text/html')
        .type('form').send({ signInToken, credential, next: '/catalog' });
      const answers = [];
      for (let i = 0; i < 12; i++) answers.push(await attempt(`catk_wrong${i}`));
      expect(answers.map((res) => res.status)).to.deep.equal([401, 401, 401, 401, 401, 429, 429, 429, 429, 429, 429, 429]);
      const refused = answers.at(-1)!;
      expect(Number(refused.headers['retry-after'])).to.be.within(1, 60);
      expect(refused.text).to.match(/Too many sign-in attempts/);
      // One count per address for every door: the interface refuses this address's guesses now too.
      expect((await service.request.get(`${tenant.prefixes.byId}/paths`).set(bearer('catk_another_guess'))).status).to.equal(429);
    });
  });

  it('is off with RATE_LIMIT=off', async () => {
    const service = await startCatalog({ RATE_LIMIT: 'off', RATE_LIMIT_MAX: '1' });
    try {
      const tenant = await givenTenant(service);
      for (let i = 0; i < 4; i++) {
        expect((await service.request.get(`${tenant.prefixes.byId}/paths`).set(bearer(tenant.key))).status).to.equal(200);
      }
    } finally {
      await service.close();
    }
  });
});
