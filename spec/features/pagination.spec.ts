// The list operation's query parameters and keyset pagination (decisions.md, List): what is
// accepted and refused, that walking `nextCursor` returns every item exactly once in the
// requested order (property-based, against an independent model of MongoDB's sort order),
// that concurrent inserts and deletes do not make it repeat or skip, and that a page is
// one bounded, index-served query however deep it is.
import { expect } from 'chai';
import fc from 'fast-check';
import { MongoClient, type CommandStartedEvent, type Document } from 'mongodb';
import { startCatalog, givenTenant, bearer, type TestCatalog, type Tenant } from '../support/catalog.ts';
import { expectInvalid } from '../support/expect.ts';
import { testDatabase, withDatabaseName } from '../support/database.ts';
import { recordOrder, type SortKey } from '../support/bson-order.ts';
import { listQueryReader } from '../support/list-query.ts';
import { newId } from '../../server/ids.ts';
import { RecordStore } from '../../server/store/records.ts';
import type { CompiledCollection } from '../../server/schemas/registry.ts';
import type { PaginationMetadata } from '../../server/schemas/generated/types.ts';

/** A Path as the tests model it: `updatedAt` as the Date the database holds. */
interface PathModel {
  id: string;
  serviceId: string;
  path: string;
  summary?: string;
  description?: string;
  updatedAt: Date;
  [field: string]: unknown;
}

interface Page {
  items: Array<Record<string, unknown> & { id: string }>;
  pagination: PaginationMetadata;
}

type Params = Array<[string, string]>;

const SERVICES = [newId('svc_'), newId('svc_'), newId('svc_')] as const;
const SORTABLE_PATH_FIELDS = ['id', 'serviceId', 'path', 'summary', 'description', 'updatedAt', 'versionId'] as const;

describe('List: query parameters and keyset pagination', () => {
  let service: TestCatalog;
  let tenant: Tenant;
  let paths: RecordStore;
  let versionCount = 0;
  // A database of this file's own: FerretDB reads a whole collection for every list query
  // (database.md), so sharing `paths` with the rest of the suite would make each of the many
  // pages walked here cost what the whole suite has stored.
  const database = { name: '', uri: '' };

  before(async () => {
    database.name = `${testDatabase().name}_pagination`;
    database.uri = withDatabaseName(testDatabase().uri, database.name);
    service = await startCatalog({ MONGODB_URI: database.uri });
    tenant = await givenTenant(service);
    paths = service.runtime.stores.get('paths')!;
  });
  after(async () => {
    await service.runtime.database.db.dropDatabase();
    await service.close();
  });

  /** Removes a property run's records, so later runs do not scan them. */
  async function dropRecords(versionId: string): Promise<void> {
    await service.runtime.database.db.collection('paths').deleteMany({ versionId });
  }

  /** A new, empty catalog version of the tenant's project, so tests and property runs do not meet. */
  async function freshVersion(): Promise<{ id: string; V: string; P: string }> {
    const slug = `pagination-${++versionCount}`;
    const version = await service.runtime.tenancy.versions.create(tenant.project.id, 'branch', slug);
    return { id: version.id, V: `/v2/catalog/versions/${version.id}`, P: `/v2/catalog/projects/${tenant.project.slug}/branch/${slug}` };
  }

  /** Stores paths directly (faster than HTTP, and lets `updatedAt` repeat); returns them. */
  async function seed(versionId: string, models: readonly PathModel[]): Promise<PathModel[]> {
    await Promise.all(models.map(({ updatedAt, ...fields }) => {
      // An absent field stays absent (the driver would store `undefined` as null).
      const present = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
      return paths.insert({ ...present, id: fields.id, versionId, kvStorage: {} }, updatedAt);
    }));
    return [...models];
  }

  function list(prefix: string, params: Params, collection = 'paths') {
    return service.request.get(`${prefix}/${collection}`).query(new URLSearchParams(params).toString()).set(bearer(tenant.key));
  }

  async function page(prefix: string, params: Params): Promise<Page> {
    const res = await list(prefix, params);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body as Page;
  }

  /** The items from `cursor` to the last page, following `nextCursor`. */
  async function walkFrom(prefix: string, params: Params, cursor: string): Promise<Page['items']> {
    const items: Page['items'] = [];
    for (let next: string | null = cursor; next !== null;) {
      const body: Page = await page(prefix, [...params, ['cursor', next]]);
      items.push(...body.items);
      next = body.pagination.nextCursor;
    }
    return items;
  }

  /**
   * Follows `nextCursor` from the first page to the last, checking each page's metadata on the
   * way; `between` runs before each following page is fetched (to write concurrently).
   */
  async function walk(prefix: string, params: Params, between?: (cursor: string, pageIndex: number) => Promise<void>): Promise<string[]> {
    const limit = Number(params.find(([name]) => name === 'limit')?.[1] ?? 50);
    const ids: string[] = [];
    let cursor: string | null = null;
    for (let index = 0; ; index++) {
      const body: Page = await page(prefix, cursor === null ? params : [...params, ['cursor', cursor]]);
      expect(body.pagination).to.deep.equal({ nextCursor: body.pagination.nextCursor, hasMore: body.pagination.nextCursor !== null, limit });
      // nextCursor is the id of the first item of the next page (its item is never deleted here).
      if (cursor !== null) expect(body.items[0]?.id, 'the page starts at its cursor').to.equal(cursor);
      ids.push(...body.items.map((item) => item.id));
      const next = body.pagination.nextCursor;
      if (next === null) {
        expect(body.items.length).to.be.at.most(limit);
        return ids;
      }
      expect(body.items.length, 'a page before the last is full').to.equal(limit);
      expect(index, 'pages never end').to.be.below(200);
      if (between) await between(next, index);
      else expect(ids, 'the cursor names an item not yet returned').to.not.include(next);
      cursor = next;
    }
  }

  /** A path model; its `path` is unique, since (serviceId, path) is the Path's natural key. */
  function aPath(fields: Partial<PathModel> = {}): PathModel {
    const id = newId('path_');
    return { id, serviceId: SERVICES[0], path: `/p/${id}`, updatedAt: new Date(), ...fields };
  }

  describe('query parameters', () => {
    let small: Awaited<ReturnType<typeof freshVersion>>;
    let created: Array<Record<string, unknown> & { id: string; serviceId: string }>;

    before(async () => {
      small = await freshVersion();
      created = [];
      // Created one by one through the API, so creation order is known.
      // Repeated paths belong to different services: (serviceId, path) is the natural key.
      for (const [index, path] of ['/c', '/a', '/b', '/a', '/e', '/d', '/b'].entries()) {
        const res = await service.request.post(`${small.V}/paths`).set(bearer(tenant.key))
          .send({ path, serviceId: SERVICES[[0, 1, 0, 0, 0, 1, 1][index]!], summary: `summary ${index % 3}` });
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
        created.push(res.body);
      }
    });

    describe('limit', () => {
      it('defaults to 50, and takes 1 to 1000', async () => {
        const big = await freshVersion();
        const seeded = await seed(big.id, Array.from({ length: 55 }, () => aPath()));
        const ids = seeded.map((model) => model.id).sort();

        const first = await page(big.V, []);
        expect(first.items.map((item) => item.id)).to.deep.equal(ids.slice(0, 50));
        expect(first.pagination).to.deep.equal({ nextCursor: ids[50], hasMore: true, limit: 50 });

        const all = await page(big.V, [['limit', '1000']]);
        expect(all.items).to.have.length(55);
        expect(all.pagination).to.deep.equal({ nextCursor: null, hasMore: false, limit: 1000 });

        const one = await page(big.V, [['limit', '1']]);
        expect(one.items.map((item) => item.id)).to.deep.equal([ids[0]]);
        expect(one.pagination).to.deep.equal({ nextCursor: ids[1], hasMore: true, limit: 1 });
      });

      for (const limit of ['0', '1001', '-1', '1.5', 'abc', '', '1e2']) {
        it(`refuses limit=${limit}: 400 naming limit`, async () => {
          expectInvalid(await list(small.V, [['limit', limit]]), 'limit');
        });
      }

      it('refuses a repeated limit: 400 naming limit', async () => {
        expectInvalid(await list(small.V, [['limit', '2'], ['limit', '2']]), 'limit');
      });
    });

    describe('cursor', () => {
      it('refuses an id of another kind, a wrong prefix or a wrong length: 400 naming cursor', async () => {
        const id = created[0]!.id;
        for (const cursor of [newId('req_'), `xxxx_${id.slice(5)}`, id.slice(0, -1), `${id}0`, 'abc', '']) {
          expectInvalid(await list(small.V, [['cursor', cursor]]), 'cursor');
        }
      });

      it('refuses a repeated cursor', async () => {
        expectInvalid(await list(small.V, [['cursor', created[1]!.id], ['cursor', created[1]!.id]]), 'cursor');
      });
    });

    describe('sort', () => {
      for (const [name, sort] of [
        ['an unknown field', 'name'], ['a non-scalar field (kvStorage)', 'kvStorage'], ['a duplicated field', 'path,-path'],
        ['an empty item', 'path,'], ['an empty value', ''], ['a bare minus', '-'],
      ] as const) {
        it(`refuses ${name}: 400 naming sort`, async () => {
          expectInvalid(await list(small.V, [['sort', sort]]), 'sort');
        });
      }

      it('refuses a field duplicated across repeated parameters', async () => {
        expectInvalid(await list(small.V, [['sort', 'summary'], ['sort', '-summary']]), 'sort');
      });

      it('comma-separated and repeated keys both work, and combine', async () => {
        const expected = [...created].sort((a, b) => compareText(a['path'], b['path']) || -compareText(a.id, b.id)).map((record) => record.id);
        const comma = await page(small.V, [['sort', 'path,-id']]);
        const repeated = await page(small.V, [['sort', 'path'], ['sort', '-id']]);
        const mixed = await page(small.V, [['sort', 'path,-id'], ['sort', 'summary']]);
        expect(comma.items.map((item) => item.id)).to.deep.equal(expected);
        expect(repeated.items.map((item) => item.id)).to.deep.equal(expected);
        expect(mixed.items.map((item) => item.id)).to.deep.equal(expected);

        const threeKeys = await page(small.V, [['sort', 'summary,-path'], ['sort', 'serviceId']]);
        const order = recordOrder([{ field: 'summary', direction: 1 }, { field: 'path', direction: -1 }, { field: 'serviceId', direction: 1 }]);
        expect(threeKeys.items.map((item) => item.id)).to.deep.equal([...created].sort(order).map((record) => record.id));
      });
    });

    describe('filters', () => {
      it('Paths: serviceId by equality, combined with sort and paging', async () => {
        const expected = created.filter((record) => record.serviceId === SERVICES[1])
          .sort((a, b) => -compareText(a['path'], b['path']) || compareText(a.id, b.id)).map((record) => record.id);
        expect(expected).to.have.length(3);
        expect(await walk(small.V, [['serviceId', SERVICES[1]], ['sort', '-path'], ['limit', '2']])).to.deep.equal(expected);
        expect((await page(small.V, [['serviceId', SERVICES[2]]])).items).to.deep.equal([]);
      });

      it('Requests: operationId by equality', async () => {
        const [operationA, operationB] = [newId('op_'), newId('op_')];
        const ids: string[] = [];
        for (const operationId of [operationA, operationB, operationA]) {
          // Media types differ: (operationId, contentMediaType) is the Request's natural key.
          const res = await service.request.post(`${small.V}/requests`).set(bearer(tenant.key)).send({ operationId, contentMediaType: `text/x-${ids.length}` });
          expect(res.status, JSON.stringify(res.body)).to.equal(201);
          ids.push(res.body.id);
        }
        const res = await list(small.V, [['operationId', operationA]], 'requests');
        expect(res.status).to.equal(200);
        expect(res.body.items.map((item: { id: string }) => item.id)).to.deep.equal([ids[0], ids[2]]);
      });

      it('refuses a malformed or repeated filter value: 400 naming the filter', async () => {
        expectInvalid(await list(small.V, [['serviceId', 'svc_nope']]), 'serviceId');
        expectInvalid(await list(small.V, [['serviceId', newId('op_')]]), 'serviceId');
        expectInvalid(await list(small.V, [['serviceId', SERVICES[0]], ['serviceId', SERVICES[0]]]), 'serviceId');
        expectInvalid(await list(small.V, [['operationId', 'op_nope']], 'requests'), 'operationId');
      });
    });

    describe('unknown parameters', () => {
      for (const name of ['page', 'offset', 'operationId', 'serviceId[$ne]', 'sort[$gt]', 'limit[]', '$where', '__proto__']) {
        it(`refuses ${name}: 400 naming it`, async () => {
          expectInvalid(await list(small.V, [[name, name === 'operationId' ? newId('op_') : 'x']]), name);
        });
      }

      it('refuses operator injection in every spelling Express could parse', async () => {
        for (const query of ['serviceId[$ne]=x', 'sort[$gt]=', 'serviceId[%24ne]=x', 'cursor[$gt]=path_', 'limit[$gt]=0']) {
          const res = await service.request.get(`${small.V}/paths?${query}`).set(bearer(tenant.key));
          expectInvalid(res, decodeURIComponent(query.split('=')[0]!));
        }
      });
    });

    describe('the response', () => {
      it('pagination is exactly {nextCursor, hasMore, limit}, valid against api/pagination.json', async () => {
        const check = service.runtime.schemas.check('https://catalog.example/schemas/api/pagination.json');
        const first = await page(small.V, [['limit', '3']]);
        expect(Object.keys(first)).to.have.members(['items', 'pagination']);
        expect(Object.keys(first.pagination)).to.have.members(['nextCursor', 'hasMore', 'limit']);
        expect(check(first.pagination)).to.deep.equal([]);
        expect(first.pagination).to.deep.equal({ nextCursor: created[3]!.id, hasMore: true, limit: 3 });

        const last = await page(small.V, [['limit', '3'], ['cursor', created[6]!.id]]);
        expect(last.items.map((item) => item.id)).to.deep.equal([created[6]!.id]);
        expect(last.pagination).to.deep.equal({ nextCursor: null, hasMore: false, limit: 3 });
        expect(check(last.pagination)).to.deep.equal([]);
      });

      it('the default order is id ascending, which is creation order', async () => {
        const ids = created.map((record) => record.id);
        expect([...ids].sort(compareText)).to.deep.equal(ids);
        expect(await walk(small.V, [['limit', '2']])).to.deep.equal(ids);
        expect((await page(small.V, [])).items).to.deep.equal(created);
      });

      it('both route families list the same pages', async () => {
        for (const params of [[['limit', '3']], [['limit', '2'], ['sort', '-summary']], [['serviceId', SERVICES[0]]]] as Params[]) {
          expect(await walk(small.P, params)).to.deep.equal(await walk(small.V, params));
        }
      });
    });
  });

  // ---------------------------------------------------------------------------------------
  // Property-based: random records, sorts and page sizes; each run in its own version.

  const alphanumeric = [...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'];
  const recordId = fc.string({ unit: fc.constantFrom(...alphanumeric), minLength: 26, maxLength: 26 }).map((rest) => `path_${rest}`);
  // Few values, so duplicates are common; absent, empty, case, accents (composed and not),
  // code points whose UTF-16 and UTF-8 orders differ (ｚ vs 😀), and NUL (stored wrapped).
  const summary = fc.option(
    fc.constantFrom('', 'a', 'A', 'b', 'B', 'abc', 'Abc', 'é', 'É', 'e\u0301', 'z', 'ｚ', '😀', '日本', 'a\u0000', 'a\u0000b'),
    { nil: undefined, freq: 4 },
  );
  const description = fc.option(fc.string({ unit: 'binary', maxLength: 3 }), { nil: undefined });
  const pathTemplate = fc.oneof(
    fc.constantFrom('/', '/a', '/A', '/a/{id}', '/ä'),
    fc.string({ unit: 'grapheme', maxLength: 3 }).map((rest) => `/${rest}`),
  );
  const updatedAt = fc.constantFrom(0, 1, 2).map((step) => new Date(Date.UTC(2025, 0, 1) + step * 1000));
  const pathModel = fc.record(
    { id: recordId, serviceId: fc.constantFrom(...SERVICES), path: pathTemplate, summary, description, updatedAt },
    { requiredKeys: ['id', 'serviceId', 'path', 'updatedAt'] },
  );
  // Unique ids, and unique (serviceId, path), the Path's natural key: ties in each field remain.
  const pathModels = (maxLength: number, minLength = 0) =>
    fc.uniqueArray(pathModel, { minLength, maxLength, selector: (model) => model.id })
      .map((models) => models.filter((model, i) => models.findIndex((other) => other.serviceId === model.serviceId && other.path === model.path) === i))
      .filter((models) => models.length >= minLength) as fc.Arbitrary<PathModel[]>;
  const sortKeys = fc.uniqueArray(
    fc.record({ field: fc.constantFrom(...SORTABLE_PATH_FIELDS), direction: fc.constantFrom(1 as const, -1 as const) }),
    { minLength: 1, maxLength: 3, selector: (key) => key.field },
  ) as fc.Arbitrary<SortKey[]>;
  const pageSize = fc.integer({ min: 1, max: 7 });

  /** The query for a sort, comma-separated or as repeated parameters. */
  function sortParams(keys: readonly SortKey[], repeated: boolean): Params {
    const items = keys.map((key) => `${key.direction === -1 ? '-' : ''}${key.field}`);
    return repeated ? items.map((item) => ['sort', item]) : [['sort', items.join(',')]];
  }

  function describeRun(keys: readonly SortKey[], models: readonly PathModel[]): string {
    const fields = ['id', ...keys.map((key) => key.field)];
    return `sort ${JSON.stringify(keys)}; records in expected order:\n${models.map((model) =>
      JSON.stringify(Object.fromEntries(fields.map((field) => [field, model[field]])))).join('\n')}`;
  }

  describe('walking nextCursor (property-based)', function () {
    this.timeout(300_000);

    async function checkWalk(models: PathModel[], keys: SortKey[], limit: number, repeated: boolean, serviceId?: string): Promise<void> {
      const version = await freshVersion();
      await seed(version.id, models);
      const params: Params = [['limit', String(limit)], ...sortParams(keys, repeated), ...(serviceId ? [['serviceId', serviceId]] as Params : [])];
      const expected = models.filter((model) => !serviceId || model.serviceId === serviceId).sort(recordOrder(keys));
      const ids = await walk(version.V, params);
      expect(ids, describeRun(keys, expected)).to.deep.equal(expected.map((model) => model.id));
      await dropRecords(version.id);
    }

    it('returns every record exactly once, in the sort order with id as the final tie-breaker', async () => {
      const started = Date.now();
      let runs = 0;
      await fc.assert(fc.asyncProperty(pathModels(40), sortKeys, pageSize, fc.boolean(), async (models, keys, limit, repeated) => {
        runs++;
        await checkWalk(models, keys, limit, repeated);
      }), { numRuns: 100 });
      process.stdout.write(`      (${runs} runs in ${Date.now() - started} ms)\n`);
    });

    it('...and the same with a serviceId filter', async () => {
      const started = Date.now();
      let runs = 0;
      await fc.assert(fc.asyncProperty(pathModels(40), sortKeys, pageSize, fc.boolean(), fc.constantFrom(...SERVICES), async (models, keys, limit, repeated, serviceId) => {
        runs++;
        await checkWalk(models, keys, limit, repeated, serviceId);
      }), { numRuns: 50 });
      process.stdout.write(`      (${runs} runs in ${Date.now() - started} ms)\n`);
    });
  });

  describe('stability while others write', function () {
    this.timeout(300_000);

    it('inserts and deletes (of anything but the cursor item) never repeat or skip an item that existed throughout (property-based)', async () => {
      // Between two pages: some records inserted, some deleted (picked among the live ones).
      const writes = fc.array(fc.record({ inserts: pathModels(3), deletes: fc.array(fc.nat(), { maxLength: 3 }) }), { maxLength: 12 });
      const started = Date.now();
      let runs = 0;
      await fc.assert(fc.asyncProperty(pathModels(25, 1), sortKeys, fc.integer({ min: 1, max: 4 }), writes, async (initial, keys, limit, steps) => {
        runs++;
        const version = await freshVersion();
        const everyRecord = new Map((await seed(version.id, initial)).map((model) => [model.id, model]));
        const live = new Set(everyRecord.keys());
        const throughout = new Set(everyRecord.keys());

        const ids = await walk(version.V, [['limit', String(limit)], ...sortParams(keys, false)], async (cursor, index) => {
          const step = steps[index];
          if (!step) return;
          // New ids, and natural keys (serviceId, path) no live record holds.
          const taken = (model: PathModel): boolean => [...live].some((id) => everyRecord.get(id)!.serviceId === model.serviceId && everyRecord.get(id)!.path === model.path);
          const fresh = step.inserts.filter((model) => !everyRecord.has(model.id) && !taken(model));
          for (const model of await seed(version.id, fresh)) {
            everyRecord.set(model.id, model);
            live.add(model.id);
          }
          for (const pick of step.deletes) {
            const candidates = [...live].filter((id) => id !== cursor);
            if (candidates.length === 0) break;
            const id = candidates[pick % candidates.length]!;
            expect(await paths.delete(version.id, id)).to.equal(true);
            live.delete(id);
            throughout.delete(id);
          }
        });

        const order = recordOrder(keys);
        const message = describeRun(keys, [...everyRecord.values()].sort(order));
        expect(new Set(ids).size, `no item twice: ${ids.join(' ')}\n${message}`).to.equal(ids.length);
        for (const id of throughout) expect(ids, `${id} existed throughout\n${message}`).to.include(id);
        for (let i = 1; i < ids.length; i++) {
          expect(order(everyRecord.get(ids[i - 1]!)!, everyRecord.get(ids[i]!)!), `in order at ${i}\n${message}`).to.be.below(0);
        }
        await dropRecords(version.id);
      }), { numRuns: 50 });
      process.stdout.write(`      (${runs} runs in ${Date.now() - started} ms)\n`);
    });

    it('a deleted cursor item under the default order: the walk continues after it', async () => {
      const version = await freshVersion();
      const ids = (await seed(version.id, Array.from({ length: 5 }, () => aPath()))).map((model) => model.id).sort();
      const first = await page(version.V, [['limit', '2']]);
      expect(first.pagination.nextCursor).to.equal(ids[2]);
      expect(await paths.delete(version.id, ids[2]!)).to.equal(true);
      for (const sort of [[], [['sort', 'id']]] as Params[]) {
        const next = await page(version.V, [['limit', '2'], ['cursor', ids[2]!], ...sort]);
        expect(next.items.map((item) => item.id)).to.deep.equal([ids[3], ids[4]]);
        expect(next.pagination).to.deep.equal({ nextCursor: null, hasMore: false, limit: 2 });
      }
      const descending = await page(version.V, [['limit', '2'], ['cursor', ids[2]!], ['sort', '-id']]);
      expect(descending.items.map((item) => item.id)).to.deep.equal([ids[1], ids[0]]);
    });

    it('the cursor item changing its sort value between pages skips nothing', async () => {
      const version = await freshVersion();
      const models = await seed(version.id, ['a', 'b', 'c', 'd', 'e'].map((summary) => aPath({ summary })));
      const first = await page(version.V, [['limit', '2'], ['sort', 'summary']]);
      const cursor = first.pagination.nextCursor!;
      expect(cursor).to.equal(models.find((model) => model.summary === 'c')!.id);
      // c moves behind e: resuming from its current value would skip d and e.
      const moved = await service.request.patch(`${version.V}/paths/${cursor}`).set(bearer(tenant.key)).send({ summary: 'z' });
      expect(moved.status).to.equal(200);
      const summaries = (await walkFrom(version.V, [['limit', '2'], ['sort', 'summary']], cursor)).map((item) => item['summary']);
      expect(summaries).to.deep.equal(['d', 'e', 'z']);
    });

    it('a deleted cursor item under another sort: the walk resumes where the item stood', async () => {
      const version = await freshVersion();
      await seed(version.id, ['b', 'a', 'c', 'e', 'd'].map((summary) => aPath({ summary })));
      const first = await page(version.V, [['limit', '2'], ['sort', 'summary']]);
      const cursor = first.pagination.nextCursor!;
      expect(await paths.delete(version.id, cursor)).to.equal(true);
      const summaries = (await walkFrom(version.V, [['limit', '2'], ['sort', 'summary']], cursor)).map((item) => item['summary']);
      expect(summaries).to.deep.equal(['d', 'e']);
    });

    it('a cursor no instance issued under this sort, whose item is gone: 400 with a clear detail', async () => {
      const version = await freshVersion();
      await seed(version.id, ['b', 'a', 'c', 'e', 'd'].map((summary) => aPath({ summary })));
      // Issued under the default order (by id), so no position of it is kept under `summary`.
      const cursor = (await page(version.V, [['limit', '2']])).pagination.nextCursor!;
      expect(await paths.delete(version.id, cursor)).to.equal(true);
      // Positions are kept in the database (docs/scaling.md), so any instance would know an issued one.
      const other = await startCatalog({ MONGODB_URI: database.uri });
      try {
        const res = await other.request.get(`${version.V}/paths`).set(bearer(tenant.key)).query({ limit: '2', sort: 'summary', cursor });
        expectInvalid(res, 'cursor');
        expect(res.body.details).to.deep.equal([{
          field: 'cursor',
          message: 'its item does not exist, so this sort cannot resume from it; start again from the first page',
        }]);
      } finally {
        await other.close();
      }
    });

    it('a cursor issued by another instance resumes where it pointed', async () => {
      const version = await freshVersion();
      await seed(version.id, ['a', 'b', 'c', 'd', 'e'].map((summary) => aPath({ summary })));
      const cursor = (await page(version.V, [['limit', '2'], ['sort', 'summary']])).pagination.nextCursor!;
      const other = await startCatalog({ MONGODB_URI: database.uri });
      try {
        const res = await other.request.get(`${version.V}/paths`).set(bearer(tenant.key)).query({ limit: '5', sort: 'summary', cursor });
        expect(res.body.items.map((item: { summary: string }) => item.summary)).to.deep.equal(['c', 'd', 'e']);
      } finally {
        await other.close();
      }
    });
  });

  describe('cost of page N', () => {
    const LIMIT = 3;
    let spy: MongoClient;
    let spyStore: RecordStore;
    let collection: CompiledCollection;
    let readQuery: ReturnType<typeof listQueryReader>;
    let version: Awaited<ReturnType<typeof freshVersion>>;
    let models: PathModel[];
    const finds: Document[] = [];

    before(async () => {
      process.stdout.write(`      (query plans checked on ${testDatabase().server.label})\n`);
      // A client of our own with command monitoring, running the store's real list code.
      spy = new MongoClient(database.uri, { monitorCommands: true });
      spy.on('commandStarted', (event: CommandStartedEvent) => {
        if (event.commandName === 'find' && event.command['find'] === 'paths') finds.push(event.command);
      });
      await spy.connect();
      collection = paths.collection;
      readQuery = listQueryReader(service.runtime.schemas, collection);
      spyStore = new RecordStore(spy.db(database.name), collection, { revisions: service.runtime.tenancy.revisions });
      version = await freshVersion();
      models = await seed(version.id, Array.from({ length: 40 }, (_, index) => aPath({
        serviceId: SERVICES[index % 4 === 0 ? 1 : 0],
        path: `/p${index % 7}/${index}`, // unique: (serviceId, path) is the natural key
        summary: `s${index % 5}`,
        updatedAt: new Date(Date.UTC(2025, 0, 1, 0, 0, index % 9)),
      })));
    });
    after(() => spy.close());

    /** Walks every page through the store; the list finds, in page order. */
    async function listFinds(query: Record<string, string>): Promise<{ pageFinds: Document[]; cursors: string[] }> {
      finds.length = 0;
      const cursors: string[] = [];
      let cursor: string | undefined;
      do {
        const result = await spyStore.list(readQuery(version.id, { ...query, limit: String(LIMIT), ...(cursor && { cursor }) }));
        cursor = result.nextCursor ?? undefined;
        if (cursor) cursors.push(cursor);
        expect(cursors.length, 'pages never end').to.be.below(models.length + 1);
      } while (cursor);
      // The store also looks the cursor item up by `_id`; a page's own query is the one with a sort.
      return { pageFinds: finds.filter((find) => find['sort'] !== undefined), cursors };
    }

    const QUERIES: Array<Record<string, string>> = [
      {}, { sort: '-id' }, { sort: '-summary' }, { sort: 'updatedAt' }, { sort: 'path,-updatedAt' },
      { serviceId: SERVICES[0] }, { serviceId: SERVICES[0], sort: '-path,summary' },
    ];
    for (const query of QUERIES) {
      it(`${JSON.stringify(query)}: one find per page, limit+1, no skip; page N's filter is page 2's with other values`, async () => {
        const { pageFinds, cursors } = await listFinds(query);
        expect(pageFinds.length).to.be.at.least(4);
        expect(pageFinds).to.have.length(cursors.length + 1);
        for (const find of pageFinds) {
          expect(find, 'no skip').to.not.have.property('skip');
          expect(find['limit']).to.equal(LIMIT + 1);
          expect(find['sort']).to.deep.equal(pageFinds[0]!['sort']);
        }
        const [first, second, ...rest] = pageFinds.map((find) => find['filter'] as Document);
        expect(shapeOf(second), 'page 2 adds the keyset condition').to.not.deep.equal(shapeOf(first));
        for (const [index, filter] of rest.entries()) {
          expect(shapeOf(filter), `page ${index + 3}`).to.deep.equal(shapeOf(second));
          // The keyset condition starts at that page's cursor item.
          expect(JSON.stringify(filter)).to.include(cursors[index + 1]!);
        }
      });
    }

    it('on MongoDB, a deep page of the default order and of a filter reads only its own keys from the index (explain)', async function () {
      const { server } = testDatabase();
      if (server.kind !== 'mongodb') {
        // FerretDB 1.24 applies these filters in its own process after reading the collection
        // (database.md), so its plan says nothing about our queries.
        process.stdout.write(`      (explain assertions not run: ${server.label} is not MongoDB)\n`);
        return;
      }
      expect(models).to.have.length(40);
      const plans: Array<[Record<string, string>, string]> = [[{}, 'versionId_id'], [{ serviceId: SERVICES[0] }, 'versionId_serviceId_id']];
      for (const [query, index] of plans) {
        const { pageFinds } = await listFinds(query);
        const stats = await Promise.all([pageFinds[1]!, pageFinds.at(-2)!].map((find) => explain(find)));
        for (const { winningPlan, executionStats } of stats) {
          const stages = stagesOf(winningPlan);
          for (const unwanted of ['SORT', 'SKIP', 'COLLSCAN']) {
            expect(stages.map((stage) => stage['stage']), JSON.stringify(winningPlan)).to.not.include(unwanted);
          }
          expect(stages.filter((stage) => stage['stage'] === 'IXSCAN').map((stage) => stage['indexName'])).to.deep.equal([index]);
          expect(executionStats.totalKeysExamined, 'keys examined').to.be.at.most(LIMIT + 2);
          expect(executionStats.totalDocsExamined, 'documents examined').to.be.at.most(LIMIT + 1);
        }
        expect(stats[1]!.executionStats.totalKeysExamined, 'a deep page costs what page 2 costs')
          .to.equal(stats[0]!.executionStats.totalKeysExamined);
      }
    });

    async function explain(find: Document): Promise<{ winningPlan: Document; executionStats: Document }> {
      const { find: name, filter, sort, limit } = find;
      const result = await spy.db(database.name).command({ explain: { find: name, filter, sort, limit }, verbosity: 'executionStats' });
      return { winningPlan: result['queryPlanner']['winningPlan'], executionStats: result['executionStats'] };
    }
  });
});

function compareText(a: unknown, b: unknown): number {
  return Buffer.compare(Buffer.from(String(a)), Buffer.from(String(b)));
}

/** The structure of a filter with every value replaced by its type. */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shapeOf);
  if (value instanceof Date) return 'date';
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, shapeOf(inner)]));
  return value === null ? 'null' : typeof value;
}

/** Every stage of a query plan, outermost first (MongoDB nests them in inputStage/inputStages, and `queryPlan` on SBE). */
function stagesOf(plan: Document | undefined): Document[] {
  if (!plan) return [];
  const inner = plan['queryPlan'] ? [plan['queryPlan']] : [plan['inputStage'], ...(plan['inputStages'] ?? [])];
  return [plan, ...inner.flatMap((stage: Document | undefined) => stagesOf(stage))].filter((stage) => stage['stage'] !== undefined);
}
