// Server side: every database call of a request carries `maxTimeMS` = what is
// left of its budget (DB_TIMEOUT_MS), so the database stops work nobody waits for any more;
// whole-version work carries DB_LONG_TIMEOUT_MS instead. Seen through command monitoring on the
// service's own client. On a database of this suite's own: the slow-query test fills a collection.
import { expect } from 'chai';
import type { CommandFailedEvent, CommandStartedEvent, CommandSucceededEvent, Document } from 'mongodb';
import { testDatabase, withDatabaseName } from '../support/database.ts';
import { expectError } from '../support/expect.ts';
import { collectionNamed, newIdOf, sampleOf } from '../support/records.ts';
import { bearer, givenTenant, startCatalog, type Tenant, type TestCatalog } from '../support/catalog.ts';

interface Seen {
  started: CommandStartedEvent;
  /** The server's error code, 0 when it succeeded; undefined while it runs. */
  code?: number;
}

/** Every command the service's client sends from now on, with how it ended. */
function watch(service: TestCatalog): { seen: Seen[]; stop(): void } {
  const client = service.runtime.database.client;
  const seen: Seen[] = [];
  const byId = new Map<number, Seen>();
  const started = (event: CommandStartedEvent) => {
    const entry = { started: event };
    seen.push(entry);
    byId.set(event.requestId, entry);
  };
  const succeeded = (event: CommandSucceededEvent) => {
    const entry = byId.get(event.requestId);
    if (entry) entry.code = 0;
  };
  const failed = (event: CommandFailedEvent) => {
    const entry = byId.get(event.requestId);
    if (entry) entry.code = Number((event.failure as { code?: unknown }).code ?? -1);
  };
  client.on('commandStarted', started).on('commandSucceeded', succeeded).on('commandFailed', failed);
  return {
    seen,
    stop: () => {
      client.off('commandStarted', started).off('commandSucceeded', succeeded).off('commandFailed', failed);
    },
  };
}

const DATA_COMMANDS = new Set(['find', 'insert', 'update', 'delete', 'findAndModify', 'aggregate', 'count']);
const onCollection = (name: string) => (entry: Seen) => entry.started.command[entry.started.commandName] === name;
const dataCommands = (seen: readonly Seen[]) => seen.filter((entry) => DATA_COMMANDS.has(entry.started.commandName));
const maxTimeOf = (entry: Seen) => (entry.started.command as Document)['maxTimeMS'] as number | undefined;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Every database call is bounded server side too', function () {
  this.timeout(120_000);
  const BUDGET_MS = 3000;
  const LONG_MS = 123_000;
  let service: TestCatalog;
  let tenant: Tenant;
  let name: string;

  before(async () => {
    // A database of our own on the run's server: the slow-query test fills `paths`, and FerretDB
    // reads whole collections, so the other suites must not meet those records.
    name = `${testDatabase().name}_bounds`;
    service = await startCatalog({
      MONGODB_URI: withDatabaseName(testDatabase().uri, name), DB_TIMEOUT_MS: String(BUDGET_MS), DB_LONG_TIMEOUT_MS: String(LONG_MS),
    });
    tenant = await givenTenant(service);
  });
  after(async () => {
    await service?.runtime.database.db.dropDatabase().catch(() => {});
    await service?.close();
  });

  it("a request's finds, inserts and updates carry maxTimeMS within its budget", async () => {
    const { request } = service;
    const paths = collectionNamed('paths');
    const url = `${tenant.prefixes.byAddress}/paths`;
    const watching = watch(service);
    try {
      const created = await request.post(url).set(bearer(tenant.key)).send({ ...sampleOf(paths), id: newIdOf(paths.idPrefix) });
      expect(created.status).to.equal(201);
      expect((await request.post(url).set(bearer(tenant.key)).send({ ...sampleOf(paths), id: newIdOf(paths.idPrefix), path: '/other' })).status).to.equal(201);
      const item = `${url}/${created.body.id}`;
      expect((await request.patch(item).set(bearer(tenant.key)).send({ summary: 'bounded' })).status).to.equal(200);
      // A page with a next cursor sorted by summary: its position is written down (an update).
      expect((await request.get(url).set(bearer(tenant.key)).query({ sort: '-summary', limit: '1' })).body.pagination.nextCursor).to.be.a('string');
      expect((await request.get(item).set(bearer(tenant.key))).status).to.equal(200);
      expect((await request.delete(item).set(bearer(tenant.key))).status).to.equal(204);
    } finally {
      watching.stop();
    }
    const sent = dataCommands(watching.seen);
    const names = new Set(sent.map((entry) => entry.started.commandName));
    for (const command of ['find', 'insert', 'update', 'findAndModify', 'delete']) expect(names, command).to.include(command);
    // The credential and version lookups (apiKeys, projects, versions) are the request's too.
    expect(sent.filter(onCollection('apiKeys')), 'the API key lookup').to.not.be.empty;
    for (const entry of sent) {
      const what = `${entry.started.commandName} on ${String(entry.started.command[entry.started.commandName])}`;
      expect(maxTimeOf(entry), what).to.be.a('number').within(1, BUDGET_MS);
    }
  });

  it('whole-version work (copy, delete) carries the long bound, not the request budget', async () => {
    const { request } = service;
    const paths = collectionNamed('paths');
    for (let i = 0; i < 3; i++) {
      const res = await request.post(`${tenant.prefixes.byId}/paths`).set(bearer(tenant.key)).send({ ...sampleOf(paths), id: newIdOf(paths.idPrefix) });
      expect(res.status).to.equal(201);
    }
    const watching = watch(service);
    try {
      const copy = await request.post(`/v2/catalog/projects/${tenant.project.id}/versions`).set(bearer(tenant.key))
        .send({ type: 'branch', slug: 'copy', copyFrom: tenant.version.id });
      expect(copy.status).to.equal(201);
      expect((await request.delete(`/v2/catalog/versions/${copy.body.id}`).set(bearer(tenant.key))).status).to.equal(204);
    } finally {
      watching.stop();
    }
    const copied = dataCommands(watching.seen).filter(onCollection('paths'));
    const inserts = copied.filter((entry) => entry.started.commandName === 'insert');
    const deletes = copied.filter((entry) => entry.started.commandName === 'delete');
    expect(inserts, 'the copy').to.not.be.empty;
    expect(deletes, 'the purge').to.not.be.empty;
    for (const entry of copied) expect(maxTimeOf(entry), entry.started.commandName).to.equal(LONG_MS);
  });

  it('an MCP tool call is bounded as a request: its version within the budget, whole-version work by the long bound', async () => {
    // A tenant of its own: its version was never resolved, so reaching it sends the lookups.
    const fresh = await givenTenant(service);
    const commandsOf = async (key: string, name: string, args: Record<string, unknown>) => {
      const watching = watch(service);
      try {
        const res = await service.request.post('/mcp').set(bearer(key)).set('Accept', 'application/json, text/event-stream')
          .send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        return { result: res.body.result as Record<string, unknown>, sent: dataCommands(watching.seen) };
      } finally {
        watching.stop();
      }
    };
    const what = (entry: Seen) => `${entry.started.commandName} on ${String(entry.started.command[entry.started.commandName])}`;

    // A page of services, like GET …/services: all of it within the budget.
    const listed = await commandsOf(fresh.key, 'list_services', { version: fresh.version.id });
    expect(listed.result).to.deep.include({ structuredContent: { services: [] } });
    expect(listed.sent.filter(onCollection('versions')), 'the version looked up').to.have.length(1);
    expect(listed.sent.filter(onCollection('services')), 'the services read').to.not.be.empty;
    for (const entry of listed.sent) expect(maxTimeOf(entry), what(entry)).to.be.within(1, BUDGET_MS);

    // Search, like GET …/search: the version within the budget, the index over the whole version by the long bound.
    const found = await commandsOf(fresh.key, 'search_endpoints', { version: `${fresh.project.id}/${fresh.version.type}/${fresh.version.slug}`, query: 'invoice' });
    expect(found.result).to.deep.include({ structuredContent: { ranking: 'lexical', hits: [] } });
    // In order: the project and the version looked up, then the index's reads (the version's revision first).
    const reached = found.sent.findIndex(onCollection('versions')) + 1;
    expect(found.sent.slice(0, reached).map((entry) => String(entry.started.command[entry.started.commandName]))).to.deep.equal(['projects', 'versions']);
    for (const entry of found.sent.slice(0, reached)) expect(maxTimeOf(entry), what(entry)).to.be.within(1, BUDGET_MS);
    const indexed = found.sent.slice(reached);
    expect(indexed, 'the index read the version').to.not.be.empty;
    for (const entry of indexed) expect(maxTimeOf(entry), what(entry)).to.equal(LONG_MS);

    // Refused from the resolver's cache (another project's version, just reached by its own
    // key), the call still costs the lookup of an unknown version, as on HTTP.
    const refused = await commandsOf(tenant.key, 'list_services', { version: fresh.version.id });
    expect(refused.result).to.deep.equal({ isError: true, content: [{ type: 'text', text: 'Forbidden' }] });
    expect(refused.sent.filter(onCollection('versions')), 'the lookup of an unknown version').to.have.length(1);
  });

  it('a query that outlives its budget is answered 503 and stopped by the database (MaxTimeMSExpired)', async function () {
    // FerretDB reads the whole collection for a sorted list: ~20,000 records take it well over a
    // second, MongoDB's index a few ms (then no call outlives the budget and this proves nothing).
    if (service.runtime.database.server.kind !== 'ferretdb') this.skip();
    const store = service.runtime.stores.get('paths')!;
    const paths = collectionNamed('paths');
    const now = new Date();
    for (let batch = 0; batch < 4; batch++) {
      const insert = Array.from({ length: 5000 }, (_, i) => ({
        ...sampleOf(paths), id: newIdOf(paths.idPrefix), versionId: tenant.version.id, path: `/slow/${batch}/${i}`, summary: `s${i % 97}`,
      }));
      await store.bulk(tenant.version.id, { insert }, now);
    }
    // The budget is a quarter of what the list takes unbounded here (outside any request), so it
    // runs out in the find (the credential and the version before it are single `_id` lookups)
    // whatever the machine.
    const before = Date.now();
    const page = await store.list({
      versionId: tenant.version.id, filters: {}, sort: [{ field: 'summary', direction: -1 }, { field: 'id', direction: -1 }], cursor: undefined, limit: 5,
    });
    expect(page.items).to.have.length(5);
    const budgetMs = Math.max(100, Math.floor((Date.now() - before) / 4));
    process.stdout.write(`      (a sorted list of 20,000 records took ${Date.now() - before} ms; budget ${budgetMs} ms)\n`);
    const slow = await startCatalog({ MONGODB_URI: withDatabaseName(testDatabase().uri, name), DB_TIMEOUT_MS: String(budgetMs) });
    // Warm: the version is resolved and cached before the request that counts.
    expect((await slow.request.get(`${tenant.prefixes.byId}/paths/${newIdOf(paths.idPrefix)}`).set(bearer(tenant.key))).status).to.be.oneOf([404, 503]);
    const watching = watch(slow);
    try {
      const started = Date.now();
      const res = await slow.request.get(`${tenant.prefixes.byId}/paths`).set(bearer(tenant.key)).query({ sort: '-summary', limit: '5' });
      const tookMs = Date.now() - started;
      expectError(res, 503, 'Service Unavailable');
      expect(res.headers['retry-after']).to.equal('1');
      expect(tookMs, 'time to 503').to.be.below(5000);
      // The list's find was sent with what was left of the budget, and the database gave up on it
      // rather than reading on for a client that had its answer.
      const lists = () => watching.seen.filter((entry) => entry.started.commandName === 'find' && onCollection('paths')(entry)
        && (entry.started.command as Document)['sort'] !== undefined);
      for (let i = 0; i < 100 && lists().some((entry) => entry.code === undefined); i++) await sleep(100);
      expect(lists(), 'the list reached the database').to.have.length(1);
      const [found] = lists();
      expect(maxTimeOf(found!)).to.be.within(1, budgetMs);
      expect(found!.code, 'MaxTimeMSExpired').to.equal(50);
    } finally {
      watching.stop();
      await slow.close();
    }
  });
});
