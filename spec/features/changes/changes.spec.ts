// What a change breaks, through the three entry points (GET {prefix}/changes, the import's dry
// run, failOn=breaking) on both families, and the MCP tool compare_versions; a second version out
// of the credential's reach is 403 as anywhere else.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { catalogForSuite, givenTenant, bearer, tokenFor, type TestCatalog, type Tenant } from '../../support/catalog.ts';
import { compareDocuments } from '../../../server/changes/compare.ts';
import { prepareDocument } from '../../../server/descriptions/document.ts';
import { readDescription } from '../../support/directory.ts';
import { pets, petsWith } from './pets.ts';

describe('changes: what a change breaks for clients', function () {
  this.timeout(60_000);
  let service: TestCatalog;
  let tenant: Tenant;
  let other: Tenant;
  let branch: { id: string; prefixes: { byId: string; byAddress: string } };

  // `main` holds the pets API; branch `next` holds it with `limit` made required and a server gone.
  const next = () => petsWith((doc) => {
    doc['paths']['/pets'].get.parameters[0].required = true;
    doc['servers'].pop();
    doc['components'].schemas.Pet.properties.age = { type: 'integer' };
  });

  catalogForSuite((made) => ({ service, tenant } = made));
  before(async () => {
    other = await givenTenant(service);
    const created = await service.request.post(`/v2/catalog/projects/${tenant.project.slug}/versions`).set(bearer(tenant.key)).send({ type: 'branch', slug: 'next' });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    branch = { id: created.body.id, prefixes: { byId: `/v2/catalog/versions/${created.body.id}`, byAddress: `/v2/catalog/projects/${tenant.project.slug}/branch/next` } };
    for (const [prefix, doc] of [[tenant.prefixes.byId, pets()], [branch.prefixes.byId, next()], [other.prefixes.byId, pets()]] as const) {
      const res = await service.request.post(`${prefix}/imports/openapi?service=pets`).set(bearer(prefix === other.prefixes.byId ? other.key : tenant.key)).send(doc);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
    }
  });

  describe('GET {prefix}/changes?against=', () => {
    for (const family of ['byId', 'byAddress'] as const) {
      it(`answers the changes from against to this version, by service, path and method (family ${family})`, async () => {
        const res = await service.request.get(`${branch.prefixes[family]}/changes?against=${tenant.version.id}`).set(bearer(tenant.readOnlyKey));
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body.summary).to.deep.equal({ breaking: 2, nonBreaking: 4, planned: 0 });
        const petsService = res.body.changes[0].service;
        expect(petsService.slug).to.equal('pets');
        expect(res.body.changes.map((change: { rule: string; operation: { method: string; path: string } | null }) => [change.rule, change.operation && `${change.operation.method} ${change.operation.path}`])).to.deep.equal([
          ['server-removed', null],
          ['request-parameter-became-required', 'GET /pets'],
          ['response-property-added', 'GET /pets'],
          ['new-optional-request-property', 'POST /pets'],
          ['response-property-added', 'POST /pets'],
          ['response-property-added', 'GET /pets/{petId}'],
        ]);
        expect(res.body.changes[1]).to.deep.equal({
          service: petsService, level: 'breaking', rule: 'request-parameter-became-required',
          operation: { method: 'GET', path: '/pets', operationId: 'listPets' }, message: 'The query parameter `limit` became required.',
        });
      });
    }

    it('reads the other way round as the reverse change, and between equal versions as nothing', async () => {
      const back = await service.request.get(`${tenant.prefixes.byId}/changes?against=${branch.id}`).set(bearer(tenant.readOnlyKey));
      expect(back.body.changes.map((change: { rule: string }) => change.rule)).to.include.members(['request-parameter-became-optional', 'server-added', 'response-property-removed']);
      const same = await service.request.get(`${tenant.prefixes.byAddress}/changes?against=${tenant.version.id}`).set(bearer(tokenFor([tenant.project.id], { readOnly: true })));
      expect(same.body).to.deep.equal({ summary: { breaking: 0, nonBreaking: 0, planned: 0 }, changes: [] });
    });

    it('narrows to one service by slug or id; a service neither version has is 404', async () => {
      const bySlug = await service.request.get(`${branch.prefixes.byId}/changes?against=${tenant.version.id}&service=pets`).set(bearer(tenant.key));
      expect(bySlug.body.summary.breaking).to.equal(2);
      const byId = await service.request.get(`${branch.prefixes.byId}/changes?against=${tenant.version.id}&service=${bySlug.body.changes[0].service.id}`).set(bearer(tenant.key));
      expect(byId.body).to.deep.equal(bySlug.body);
      const none = await service.request.get(`${branch.prefixes.byId}/changes?against=${tenant.version.id}&service=nope`).set(bearer(tenant.key));
      expect(none.status).to.equal(404);
      expect(none.body).to.deep.equal({ error: 'Service not found' });
    });

    it('takes against by type/slug in the project or project/type/slug, as by id', async () => {
      const byId = await service.request.get(`${branch.prefixes.byAddress}/changes?against=${tenant.version.id}`).set(bearer(tenant.readOnlyKey));
      expect(byId.body.summary).to.deep.equal({ breaking: 2, nonBreaking: 4, planned: 0 });
      for (const against of ['branch/main', `${tenant.project.slug}/branch/main`, `${tenant.project.id}/branch/main`]) {
        for (const prefix of [branch.prefixes.byId, branch.prefixes.byAddress]) {
          const res = await service.request.get(`${prefix}/changes`).query({ against }).set(bearer(tenant.readOnlyKey));
          expect(res.status, `${against}: ${JSON.stringify(res.body)}`).to.equal(200);
          expect(res.body, against).to.deep.equal(byId.body);
        }
      }
      // Another project's version by address is out of reach as by id.
      const theirs = await service.request.get(`${branch.prefixes.byId}/changes`).query({ against: `${other.project.slug}/branch/main` }).set(bearer(tenant.key));
      expect([theirs.status, theirs.body]).to.deep.equal([403, { error: 'Forbidden' }]);
    });

    it('is 403 when against is out of the credential\'s reach or unknown, 400 when missing or malformed', async () => {
      for (const against of [other.version.id, 'ver_0000000000000000000000000Z']) {
        const res = await service.request.get(`${branch.prefixes.byId}/changes?against=${against}`).set(bearer(tenant.key));
        expect(res.status, against).to.equal(403);
        expect(res.body).to.deep.equal({ error: 'Forbidden' });
      }
      const missing = await service.request.get(`${branch.prefixes.byId}/changes`).set(bearer(tenant.key));
      expect(missing.status).to.equal(400);
      expect(missing.body.details).to.deep.equal([{ field: 'against', message: 'is required: the version clients use now' }]);
      const malformed = await service.request.get(`${branch.prefixes.byId}/changes?against=nope`).set(bearer(tenant.key));
      expect(malformed.status).to.equal(400);
    });
  });

  describe('a real pair through the catalog (Adyen Transfers v4 → latest)', () => {
    it('answers what the two documents compare to: the export loses nothing a client sees', async () => {
      const [older, newer] = ['adyen.com/TransferService-v4.json', 'adyen.com/TransferService.json'].map(readDescription);
      for (const [prefix, doc] of [[tenant.prefixes.byId, older], [branch.prefixes.byId, newer]] as const) {
        const res = await service.request.post(`${prefix}/imports/openapi?service=transfers`).set(bearer(tenant.key)).send(doc);
        expect(res.status, JSON.stringify(res.body).slice(0, 500)).to.equal(201);
      }
      const res = await service.request.get(`${branch.prefixes.byAddress}/changes?against=${tenant.version.id}&service=transfers`).set(bearer(tenant.key));
      expect(res.status).to.equal(200);
      const direct = compareDocuments(await prepareDocument(older), await prepareDocument(newer));
      const seen = (changes: { level: string; rule: string; operation: { method: string; path: string } | null }[]) =>
        changes.map((change) => `${change.level} ${change.rule} ${change.operation?.method} ${change.operation?.path}`).sort();
      expect(res.body.summary.breaking).to.be.greaterThan(0);
      expect(seen(res.body.changes)).to.deep.equal(seen(direct));
      const dry = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=transfers&dryRun=true`).set(bearer(tenant.key)).send(newer);
      expect(seen(dry.body.changes.changes)).to.deep.equal(seen(direct));
      const gate = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=transfers&failOn=breaking`).set(bearer(tenant.key)).send(newer);
      expect(gate.status).to.equal(409);
      expect(gate.body.details).to.have.length(res.body.summary.breaking);
    });
  });

  describe('POST {prefix}/imports/openapi?dryRun=true', () => {
    for (const family of ['byId', 'byAddress'] as const) {
      it(`answers what the import would change for clients, and the record counts under records (family ${family})`, async () => {
        const res = await service.request.post(`${tenant.prefixes[family]}/imports/openapi?service=pets&dryRun=true`).set(bearer(tenant.key)).send(next());
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body.records.parameters.updated).to.be.greaterThan(0);
        expect(res.body.changes.summary).to.deep.equal({ breaking: 2, nonBreaking: 4, planned: 0 });
        const against = await service.request.get(`${branch.prefixes.byId}/changes?against=${tenant.version.id}&service=pets`).set(bearer(tenant.key));
        // The same changes as between the versions, but named by this version's service.
        const slugOnly = (body: { changes: { service: { slug: string } }[] }) => body.changes.map((change) => ({ ...change, service: change.service.slug }));
        expect(slugOnly(res.body.changes)).to.deep.equal(slugOnly(against.body));
      });
    }

    it('reports no change for the same API written in OpenAPI 3.0 (nullable, exclusiveMinimum) as held from 3.1', async () => {
      const as31 = petsWith((doc) => (doc['components'].schemas.Pet.properties.weight = { type: ['number', 'null'], exclusiveMinimum: 0 }));
      const imported = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=spelling`).set(bearer(tenant.key)).send(as31);
      expect(imported.status).to.equal(201);
      const as30 = { ...petsWith((doc) => (doc['components'].schemas.Pet.properties.weight = { type: 'number', nullable: true, minimum: 0, exclusiveMinimum: true })), openapi: '3.0.3' };
      const dry = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=spelling&dryRun=true`).set(bearer(tenant.key)).send(as30);
      expect(dry.status, JSON.stringify(dry.body)).to.equal(200);
      expect(dry.body.changes).to.deep.equal({ summary: { breaking: 0, nonBreaking: 0, planned: 0 }, changes: [] });
    });

    it('reports every operation as added, none breaking, for a service the catalog does not hold yet', async () => {
      const res = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=brand-new&dryRun=true`).set(bearer(tenant.key)).send(pets());
      expect(res.body.changes.summary.breaking).to.equal(0);
      expect(res.body.changes.changes.filter((change: { rule: string }) => change.rule === 'operation-added')).to.have.length(3);
    });
  });

  describe('POST {prefix}/imports/openapi?failOn=breaking', () => {
    for (const family of ['byId', 'byAddress'] as const) {
      it(`refuses an import that would break clients with 409 and writes nothing (family ${family})`, async () => {
        const res = await service.request.post(`${tenant.prefixes[family]}/imports/openapi?service=pets&failOn=breaking`).set(bearer(tenant.key)).send(next());
        expect(res.status, JSON.stringify(res.body)).to.equal(409);
        expect(res.body).to.deep.equal({
          error: 'Conflict',
          details: [
            { field: '/servers', message: 'server-removed: The server https://eu.pets.example/v1 was removed.' },
            { field: '/paths/~1pets/get', message: 'request-parameter-became-required: The query parameter `limit` became required.' },
          ],
        });
        // The catalog still holds the original: importing it again would change nothing.
        const still = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=pets&dryRun=true`).set(bearer(tenant.key)).send(pets());
        expect(still.body.changes.summary).to.deep.equal({ breaking: 0, nonBreaking: 0, planned: 0 });
        const parameters = await service.request.get(`${tenant.prefixes.byId}/parameters?name=limit`).set(bearer(tenant.key));
        expect(parameters.body.items[0].required).to.equal(false);
      });
    }

    it('lets an import that breaks nothing through, with its changes', async () => {
      const additive = petsWith((doc) => (doc['components'].schemas.Pet.properties.nickname = { type: 'string' }));
      const res = await service.request.post(`${tenant.prefixes.byAddress}/imports/openapi?service=pets&failOn=breaking`).set(bearer(tenant.key)).send(additive);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.dryRun).to.equal(false);
      expect(res.body.changes.summary).to.deep.equal({ breaking: 0, nonBreaking: 4, planned: 0 });
      expect(res.body.records.services.updated + res.body.records.resources.updated).to.equal(1);
      const back = await service.request.post(`${tenant.prefixes.byAddress}/imports/openapi?service=pets`).set(bearer(tenant.key)).send(pets());
      expect(back.status).to.equal(200);
      expect(back.body).to.not.have.property('changes');
    });

    it('takes only failOn=breaking or lint-error', async () => {
      const res = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=pets&failOn=anything`).set(bearer(tenant.key)).send(pets());
      expect(res.status).to.equal(400);
      expect(res.body.details).to.deep.equal([{ field: 'failOn', message: 'must be breaking or lint-error' }]);
    });
  });

  describe('MCP tool compare_versions', () => {
    let listening: Server;
    let client: Client;
    before(async () => {
      listening = service.app.listen(0, '127.0.0.1');
      await new Promise((resolve) => listening.once('listening', resolve));
      const url = new URL(`http://127.0.0.1:${(listening.address() as AddressInfo).port}/mcp`);
      client = new Client({ name: 'changes-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: bearer(tenant.readOnlyKey) } }));
    });
    after(async () => {
      await client.close();
      await new Promise((resolve) => listening.close(resolve));
    });

    it('answers as GET {prefix}/changes does, versions by id or address', async () => {
      const http = await service.request.get(`${branch.prefixes.byId}/changes?against=${tenant.version.id}&service=pets`).set(bearer(tenant.key));
      const result = await client.callTool({ name: 'compare_versions', arguments: { version: `${tenant.project.slug}/branch/next`, against: tenant.version.id, service: 'pets' } }) as CallToolResult;
      expect(result.isError, JSON.stringify(result)).to.not.equal(true);
      expect(result.structuredContent).to.deep.equal(http.body);
    });

    it('is Forbidden for a version out of reach', async () => {
      const result = await client.callTool({ name: 'compare_versions', arguments: { version: branch.id, against: other.version.id } }) as CallToolResult;
      expect(result.isError).to.equal(true);
      expect(result.content).to.deep.equal([{ type: 'text', text: 'Forbidden' }]);
    });
  });
});
