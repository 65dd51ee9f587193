// What the service answers to bodies,
// heads and addresses that are wrong, oversized or hostile. Each test failed before its fix.
import { expect } from 'chai';
import zlib from 'node:zlib';
import { testDatabase } from '../support/database.ts';
import { expectError, expectInvalid } from '../support/expect.ts';
import { spawnService, type ServiceProcess } from '../support/process.ts';
import { rawRequest } from '../support/raw-http.ts';
import { collectionNamed, sampleOf } from '../support/records.ts';
import { catalogForSuite, JWT_SECRET, bearer, givenTenant, startCatalog, type Tenant, type TestCatalog } from '../support/catalog.ts';

const serviceId = `svc_${'0'.repeat(26)}`;

describe('Bad requests', () => {
  let service: TestCatalog;
  let tenant: Tenant;

  catalogForSuite((made) => ({ service, tenant } = made), { RECORD_MAX_KEYS: '200', RECORD_MAX_BYTES: '8kb' });

  const post = (body: Buffer | string, headers: Record<string, string>) => {
    let test = service.request.post(`${tenant.prefixes.byId}/paths`).set(bearer(tenant.key));
    for (const [name, value] of Object.entries(headers)) test = test.set(name, value);
    // As given: superagent would otherwise JSON-encode a Buffer sent as application/json.
    return test.serialize((bytes: unknown) => bytes as string).send(body);
  };

  describe('bodies', () => {
    for (const [encoding, corrupt] of [
      ['gzip', Buffer.concat([zlib.gzipSync('{"path":"/a"}').subarray(0, 12), Buffer.from('garbage-garbage')])],
      ['deflate', Buffer.from('this is not deflate data')],
      ['br', Buffer.from([0xff, 0xff, 0xff, 0xff, 0x00, 0x01])],
    ] as const) {
      it(`a corrupt ${encoding} body is 400 naming Content-Encoding, not the path`, async () => {
        const res = await post(corrupt, { 'Content-Type': 'application/json', 'Content-Encoding': encoding });
        expectInvalid(res, 'Content-Encoding');
        expect(res.body.details[0].message).to.include(encoding);
      });
    }

    it('a valid gzip body is read', async () => {
      const res = await post(zlib.gzipSync(JSON.stringify({ serviceId, path: '/gzipped' })), { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
    });

    it('invalid UTF-8 inside a JSON string is 400, never stored as U+FFFD', async () => {
      const bytes = Buffer.concat([Buffer.from(`{"serviceId":"${serviceId}","path":"/bad`), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
      const res = await post(bytes, { 'Content-Type': 'application/json' });
      expectInvalid(res, 'body');
      expect(res.body.details[0].message).to.equal('is not valid UTF-8');
    });

    it('charset=utf-16 is 415 (only UTF-8 is read)', async () => {
      const res = await post(Buffer.from(JSON.stringify({ serviceId, path: '/u16' }), 'utf16le'), { 'Content-Type': 'application/json; charset=utf-16' });
      expectError(res, 415, 'Invalid request');
      expect(res.body.details).to.deep.equal([{ field: 'Content-Type', message: 'charset must be utf-8' }]);
    });

    it('POST and PATCH with Content-Type application/json and an empty body are 400 "is empty", not 415', async () => {
      const created = await post(JSON.stringify({ serviceId, path: '/empty' }), { 'Content-Type': 'application/json' });
      for (const test of [
        service.request.post(`${tenant.prefixes.byId}/paths`),
        service.request.patch(`${tenant.prefixes.byId}/paths/${created.body.id}`),
      ]) {
        const res = await test.set(bearer(tenant.key)).set('Content-Type', 'application/json');
        expectError(res, 400, 'Invalid request');
        expect(res.body.details).to.deep.equal([{ field: 'body', message: 'is empty' }]);
      }
    });
  });

  describe('what one record may cost', () => {
    it('a record with more object keys than RECORD_MAX_KEYS is 400 before validation', async () => {
      const kvStorage = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`k${i}`, i]));
      const res = await post(JSON.stringify({ serviceId, path: '/many', kvStorage }), { 'Content-Type': 'application/json' });
      expectError(res, 400, 'Invalid request');
      expect(res.body.details).to.deep.equal([{ field: '/', message: 'has more than 200 object keys in all' }]);
    });

    it('a record larger than RECORD_MAX_BYTES (under the body limit) is 413', async () => {
      const res = await post(JSON.stringify({ serviceId, path: '/big', summary: 'x'.repeat(9000) }), { 'Content-Type': 'application/json' });
      expectError(res, 413, 'Invalid request');
      expect(res.body.details[0].field).to.equal('body');
    });
  });

  describe('routing and Location', () => {
    it('a trailing slash or another letter case is 404, not the route', async () => {
      for (const url of [`${tenant.prefixes.byId}/paths/`, `${tenant.prefixes.byId}/Paths`, `${tenant.prefixes.byAddress.replace('/v2/catalog/', '/V2/Catalog/')}/paths`]) {
        expectError(await service.request.get(url).set(bearer(tenant.key)), 404, 'Not found');
      }
    });

    it('201 on create and on replace-as-create carries Location, the record URL in the same family', async () => {
      const created = await service.request.post(`${tenant.prefixes.byAddress}/paths`).set(bearer(tenant.key)).send({ serviceId, path: '/located' });
      expect(created.status).to.equal(201);
      expect(created.headers['location']).to.equal(`${tenant.prefixes.byAddress}/paths/${created.body.id}`);
      const fetched = await service.request.get(created.headers['location']!).set(bearer(tenant.key));
      expect(fetched.body).to.deep.equal(created.body);

      const id = 'path_01JDQ9ZZZZZZZZZZZZZZZZZZZZ';
      const replaced = await service.request.post(`${tenant.prefixes.byId}/paths/${id}`).set(bearer(tenant.key)).send({ serviceId, path: '/put' });
      expect(replaced.status, JSON.stringify(replaced.body)).to.equal(201);
      expect(replaced.headers['location']).to.equal(`${tenant.prefixes.byId}/paths/${id}`);
      const again = await service.request.post(`${tenant.prefixes.byId}/paths/${id}`).set(bearer(tenant.key)).send({ serviceId, path: '/put' });
      expect(again.status).to.equal(200);
      expect(again.headers).to.not.have.property('location');
    });
  });
});

describe('Bad requests on the wire', function () {
  this.timeout(90_000);
  let running: ServiceProcess;
  let port: number;
  let tenant: Tenant;
  let helper: TestCatalog;

  before(async () => {
    helper = await startCatalog();
    tenant = await givenTenant(helper);
    running = await spawnService({ MONGODB_URI: testDatabase().uri, JWT_SECRET, BODY_LIMIT: '64kb' });
    port = Number(new URL(running.url).port);
  });
  after(async () => {
    await running?.stop();
    await helper?.close();
  });

  const head = (lines: string[]) => `${lines.join('\r\n')}\r\n\r\n`;

  it('a Content-Length over the body limit is 413 at once (the body never sent), and the connection closes', async () => {
    const answer = await rawRequest(port, head([
      `POST ${tenant.prefixes.byId}/paths HTTP/1.1`, 'Host: x', `Authorization: Bearer ${tenant.key}`,
      'Content-Type: application/json', `Content-Length: ${10 * 1024 * 1024}`,
    ]));
    expect(answer.status).to.equal(413);
    expect(JSON.parse(answer.body).error).to.equal('Invalid request');
    expect(answer.headers['connection']).to.equal('close');
    expect(answer.closed).to.equal(true);
  });

  it('a request that fails authentication is answered without its body being read, and the connection closes', async () => {
    const answer = await rawRequest(port, head([
      `POST ${tenant.prefixes.byId}/paths HTTP/1.1`, 'Host: x', 'Authorization: Bearer catk_wrong',
      'Content-Type: application/json', 'Content-Length: 60000',
    ]));
    expect(answer.status).to.equal(401);
    expect(JSON.parse(answer.body)).to.deep.equal({ error: 'Unauthorized' });
    expect(answer.headers['connection']).to.equal('close');
    expect(answer.closed).to.equal(true);
  });

  it("Node's own 400 (bad bytes in the URL) has the error body", async () => {
    const answer = await rawRequest(port, Buffer.from('GET /v2/\u0001bad HTTP/1.1\r\nHost: x\r\n\r\n', 'latin1'));
    expect(answer.status).to.equal(400);
    expect(answer.headers['content-type']).to.match(/^application\/json/);
    expect(JSON.parse(answer.body)).to.have.property('error', 'Invalid request');
  });

  it("Node's own 431 (oversized headers) has the error body", async () => {
    const answer = await rawRequest(port, head(['GET /healthz HTTP/1.1', 'Host: x', `X-Big: ${'a'.repeat(20_000)}`]));
    expect(answer.status).to.equal(431);
    expect(answer.headers['content-type']).to.match(/^application\/json/);
    expect(JSON.parse(answer.body)).to.deep.equal({ error: 'Invalid request', details: [{ field: 'headers', message: 'are larger than the server accepts' }] });
  });

  it("a request line that is not HTTP has the error body", async () => {
    const answer = await rawRequest(port, 'HELLO\r\n\r\n');
    expect(answer.status).to.equal(400);
    expect(JSON.parse(answer.body)).to.have.property('error', 'Invalid request');
  });
});

describe('Validation details of a oneOf', () => {
  let service: TestCatalog;
  let tenant: Tenant;

  catalogForSuite((made) => ({ service, tenant } = made));

  it('a rich-text value that fails inside a node gives one entry, from the branch that matched best', async () => {
    const body = { ...sampleOf(collectionNamed('requests')), descriptionBlocks: { type: 'paragraph', content: [{ type: 'text', text: 42 }] } };
    const res = await service.request.post(`${tenant.prefixes.byId}/requests`).set(bearer(tenant.key)).send(body);
    expectError(res, 400, 'Invalid request');
    expect(res.body.details, JSON.stringify(res.body.details)).to.have.length(1);
    expect(res.body.details[0].field).to.match(/^\/descriptionBlocks\/content\/0/);
  });
});

describe('Refusals take the same work whatever is refused', () => {
  let service: TestCatalog;

  before(async () => {
    service = await startCatalog();
  });
  after(() => service.close());

  /** Version lookups (not timed: counted) that one request makes. */
  async function lookupsOf(url: string, key: string): Promise<number> {
    type Lookups = Record<string, (...args: unknown[]) => Promise<unknown>>;
    const { projects, versions } = service.runtime.tenancy;
    const spied = ([[projects, 'find'], [versions, 'find'], [versions, 'findByAddress']] as const)
      .map(([part, name]) => ({ part: part as unknown as Lookups, name, original: (part as unknown as Lookups)[name]! }));
    let count = 0;
    for (const { part, name, original } of spied) {
      part[name] = (...args: unknown[]) => {
        count += 1;
        return original.apply(part, args);
      };
    }
    try {
      const res = await service.request.get(url).set(bearer(key));
      expectError(res, 403, 'Forbidden');
      return count;
    } finally {
      for (const { part, name, original } of spied) part[name] = original;
    }
  }

  it("another project's cached version, an unknown slug and an unknown project cost the same lookups", async () => {
    const mine = await givenTenant(service);
    const theirs = await givenTenant(service);
    const known = `${theirs.prefixes.byAddress}/paths`;
    await service.request.get(known).set(bearer(mine.key)); // now in the cache
    const counts = [
      await lookupsOf(known, mine.key),
      await lookupsOf(`/v2/catalog/projects/${theirs.project.slug}/branch/no-such-slug/paths`, mine.key),
      await lookupsOf('/v2/catalog/projects/no-such-project/branch/main/paths', mine.key),
    ];
    expect(counts, 'cached, unknown slug, unknown project').to.deep.equal([2, 2, 2]);
  });
});
