// The import gate: imports of all tenants together take turns (IMPORT_CONCURRENCY), wait up to
// IMPORT_QUEUE, and fit IMPORT_MEMORY_BUDGET; beyond that 503 with Retry-After in the documented
// error shape and nothing written. An import is held inside the gate by sending its headers and
// half its body: it is admitted before its body is read, and stays until the rest arrives.
import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ImportGate } from '../../../server/descriptions/import-gate.ts';
import { bearer, givenTenant, startCatalog, type Tenant, type TestCatalog } from '../../support/catalog.ts';
import { petstore } from './petstore.ts';

const BODY = Buffer.from(JSON.stringify(petstore()));

interface HeldImport {
  /** Sends the rest of the body; resolves with the answer. */
  finish(): Promise<{ status: number; body: any }>;
}

/** An import over a real socket whose body is sent only in part until `finish`. */
function heldImport(port: number, tenant: Tenant): HeldImport {
  let answered: (value: { status: number; body: any }) => void;
  const answer = new Promise<{ status: number; body: any }>((resolve) => (answered = resolve));
  const req = http.request({
    port, host: '127.0.0.1', method: 'POST', path: `${tenant.prefixes.byId}/imports/openapi?service=held`,
    headers: { ...bearer(tenant.key), 'Content-Type': 'application/json', 'Content-Length': BODY.length },
  }, (res) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('end', () => answered({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
  });
  const half = Math.floor(BODY.length / 2);
  req.write(BODY.subarray(0, half));
  return { finish: () => { req.end(BODY.subarray(half)); return answer; } };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('descriptions: the import gate over all tenants', function () {
  this.timeout(120_000);

  /** A service with the gate as given, listening on a port (a held import needs a real socket). */
  function gatedService(env: Record<string, string>): { get: () => { service: TestCatalog; gate: ImportGate; port: number } } {
    let made: { service: TestCatalog; gate: ImportGate; port: number; server: http.Server } | undefined;
    before(async () => {
      const service = await startCatalog(env);
      const server = http.createServer(service.app);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      made = { service, server, gate: service.app.locals['importGate'] as ImportGate, port: (server.address() as AddressInfo).port };
    });
    after(async () => {
      if (!made) return;
      await new Promise((resolve) => made!.server.close(resolve));
      await made.service.close();
    });
    return { get: () => made! };
  }

  async function nothingWritten(service: TestCatalog, tenant: Tenant): Promise<void> {
    for (const collection of ['services', 'paths', 'operations']) {
      const res = await service.request.get(`${tenant.prefixes.byId}/${collection}`).set(bearer(tenant.key));
      expect(res.status).to.equal(200);
      expect(res.body.items, collection).to.deep.equal([]);
    }
  }

  function expectRefused(res: { status: number; headers: Record<string, string>; body: any }, message: RegExp): void {
    expect(res.status, JSON.stringify(res.body)).to.equal(503);
    expect(Number(res.headers['retry-after'])).to.be.at.least(1);
    expect(res.body).to.have.keys('error', 'details');
    expect(res.body.error).to.equal('Service Unavailable');
    expect(res.body.details).to.have.length(1);
    expect(res.body.details[0].field).to.equal('imports');
    expect(res.body.details[0].message).to.match(message);
  }

  describe('one at a time, one waiting', () => {
    const made = gatedService({ IMPORT_CONCURRENCY: '1', IMPORT_QUEUE: '1' });

    it('refuses the import beyond the queue with 503 and writes nothing of it; the waiting one completes after the running one', async () => {
      const { service, gate, port } = made.get();
      const [first, second, third] = await Promise.all([givenTenant(service), givenTenant(service), givenTenant(service)]);
      const running = heldImport(port, first);
      await until(() => gate.load.running === 1);
      const waiting = service.request.post(`${second.prefixes.byId}/imports/openapi?service=waiting`).set(bearer(second.key)).send(petstore()).then((res) => res);
      await until(() => gate.load.waiting === 1);

      const refused = await service.request.post(`${third.prefixes.byId}/imports/openapi?service=refused`).set(bearer(third.key)).send(petstore());
      expectRefused(refused, /IMPORT_QUEUE/);
      // A dry run takes its turn like any import.
      const refusedDry = await service.request.post(`${third.prefixes.byId}/imports/openapi?dryRun=true`).set(bearer(third.key)).send(petstore());
      expectRefused(refusedDry, /IMPORT_QUEUE/);
      await nothingWritten(service, third);
      expect(gate.load).to.include({ running: 1, waiting: 1 });

      const [ran, waited] = await Promise.all([running.finish(), waiting]);
      expect(ran.status, JSON.stringify(ran.body)).to.equal(201);
      expect(waited.status, JSON.stringify(waited.body)).to.equal(201);
      const paths = await service.request.get(`${second.prefixes.byId}/paths`).set(bearer(second.key));
      expect(paths.body.items.map((path: { path: string }) => path.path)).to.have.members(Object.keys(petstore().paths as object));
      expect(gate.load).to.deep.equal({ running: 0, waiting: 0, reservedBytes: 0 });

      // Refused while the gate was full, taken once it is free.
      const retried = await service.request.post(`${third.prefixes.byId}/imports/openapi?service=refused`).set(bearer(third.key)).send(petstore());
      expect(retried.status, JSON.stringify(retried.body)).to.equal(201);
    });

    it('lets a client that goes while waiting leave the queue', async () => {
      const { service, gate, port } = made.get();
      const [first, second] = await Promise.all([givenTenant(service), givenTenant(service)]);
      const running = heldImport(port, first);
      await until(() => gate.load.running === 1);
      const goer = http.request({
        port, host: '127.0.0.1', method: 'POST', path: `${second.prefixes.byId}/imports/openapi?service=gone`,
        headers: { ...bearer(second.key), 'Content-Type': 'application/json', 'Content-Length': BODY.length },
      });
      goer.on('error', () => {});
      goer.end(BODY);
      await until(() => gate.load.waiting === 1);
      goer.destroy();
      await until(() => gate.load.waiting === 0);
      expect((await running.finish()).status).to.equal(201);
      await nothingWritten(service, second);
    });
  });

  describe('a memory budget one import fits', () => {
    // Each import counts as 24× its body: room for one petstore, not two, though two may run.
    const made = gatedService({ IMPORT_CONCURRENCY: '2', IMPORT_QUEUE: '0', IMPORT_MEMORY_BUDGET: String(BODY.length * 24 * 1.5 | 0) });

    it('refuses a second import while the first holds the budget, though a place is free', async () => {
      const { service, gate, port } = made.get();
      const [first, second] = await Promise.all([givenTenant(service), givenTenant(service)]);
      const running = heldImport(port, first);
      await until(() => gate.load.running === 1);
      const refused = await service.request.post(`${second.prefixes.byId}/imports/openapi?service=refused`).set(bearer(second.key)).send(petstore());
      expectRefused(refused, /IMPORT_MEMORY_BUDGET running, IMPORT_QUEUE waiting/);
      await nothingWritten(service, second);
      expect((await running.finish()).status).to.equal(201);
      const retried = await service.request.post(`${second.prefixes.byId}/imports/openapi?service=refused`).set(bearer(second.key)).send(petstore());
      expect(retried.status, JSON.stringify(retried.body)).to.equal(201);
    });
  });

  describe('a memory budget smaller than the import', () => {
    const made = gatedService({ IMPORT_MEMORY_BUDGET: '1kb' });

    it('refuses it at once with 503 naming the budget, and writes nothing', async () => {
      const { service, gate } = made.get();
      const tenant = await givenTenant(service);
      const refused = await service.request.post(`${tenant.prefixes.byId}/imports/openapi`).set(bearer(tenant.key)).send(petstore());
      expectRefused(refused, /IMPORT_MEMORY_BUDGET/);
      await nothingWritten(service, tenant);
      expect(gate.load).to.deep.equal({ running: 0, waiting: 0, reservedBytes: 0 });
    });
  });
});
