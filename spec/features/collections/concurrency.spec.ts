// Concurrent writes to one record: every write is either applied whole or refused, never half.
// FerretDB applies an update by reading and writing back the whole document, so these pass only
// because the service serialises the writes of each record (server/store/locks.ts).
import { expect } from 'chai';
import type { Response } from 'supertest';
import { expectError, tally } from '../../support/expect.ts';
import { testDatabase } from '../../support/database.ts';
import {
  Client, VIAS, schemas, newIdOf, optionalTextField, sampleOf, variantOf, writableFields, type Fields,
} from '../../support/records.ts';
import { catalogForSuite, type Tenant, type TestCatalog } from '../../support/catalog.ts';

const PARALLEL = 12;

describe('collections: concurrent writes', () => {
  let service: TestCatalog;
  let tenant: Tenant;
  let client: Client;

  catalogForSuite((made) => {
    ({ service, tenant } = made);
    client = new Client(service, tenant);
  });

  /** Via V, P by slug and P by id in turn, so both families race each other. */
  const via = (i: number): (typeof VIAS)[number] => VIAS[i % VIAS.length]!;

  for (const collection of schemas.collections) {
    const name = collection.name;
    const notFound = collection.notFound;

    describe(`${name}: parallel PATCHes of different fields`, () => {
      it('all survive, and every read in between sees a whole record', async () => {
        // Every writable field of one record, each patched three times, all at once, in two rounds.
        const record = await client.given(name);
        const fields = writableFields(collection);
        for (const round of ['a', 'b']) {
          const sent = new Map(fields.map((field) => [field, [1, 2, 3].map((n) => variantOf(collection, field, `${round}${n}`))]));
          const patches = [...sent].flatMap(([field, values]) => values.map((value, n) => client.update(name, record.id, { [field]: value }, via(n))));
          const reads = fields.map(() => client.get(name, record.id));
          const [patched, read] = await Promise.all([Promise.all(patches), Promise.all(reads)]);
          expect(tally(patched), `${patches.length} patches`).to.deep.equal({ 200: patches.length });
          for (const res of read) {
            const { updatedAt: _, ...whole } = res.body as Fields;
            expect(collection.checkRecord(whole), res.text).to.deep.equal([]);
          }
          const final = (await client.get(name, record.id)).body as Fields;
          for (const [field, values] of sent) expect(values, `${field} lost its patches`).to.deep.include(final[field]);
          // The writes ran one after another: the last one answered with the final record.
          expect(patched.map((res) => res.body)).to.deep.include(final);
        }
      });
    });

    describe(`${name}: parallel creates of one client-supplied id`, () => {
      it(`yield exactly one 201 and ${PARALLEL - 1} × 409`, async () => {
        const id = newIdOf(collection.idPrefix);
        const bodies = Array.from({ length: PARALLEL }, () => ({ ...sampleOf(collection), id }));
        const responses = await Promise.all(bodies.map((body, i) => client.create(name, body, via(i))));
        expect(tally(responses)).to.deep.equal({ 201: 1, 409: PARALLEL - 1 });
        for (const res of responses.filter((r) => r.status === 409)) expectError(res, 409, 'Conflict');
        const winner = responses.find((res) => res.status === 201)!;
        expect((await client.get(name, id)).body).to.deep.equal(winner.body);
      });
    });

    describe(`${name}: parallel replaces of a new id`, () => {
      it(`yield exactly one 201 and ${PARALLEL - 1} × 200, ending with one of the bodies`, async () => {
        const id = newIdOf(collection.idPrefix);
        const text = optionalTextField(collection);
        const bodies = Array.from({ length: PARALLEL }, (_, i) => ({ ...sampleOf(collection), [text]: `writer ${i}` }));
        const responses = await Promise.all(bodies.map((body, i) => client.replace(name, id, body, via(i))));
        expect(tally(responses)).to.deep.equal({ 201: 1, 200: PARALLEL - 1 });
        const final = (await client.get(name, id)).body as Fields;
        expect(responses.map((res) => res.body)).to.deep.include(final);
        expect(bodies.map((body) => body[text])).to.include(final[text]);
      });
    });

    describe(`${name}: parallel deletes`, () => {
      it(`yield exactly one 204 and ${PARALLEL - 1} × 404`, async () => {
        const record = await client.given(name);
        const responses = await Promise.all(Array.from({ length: PARALLEL }, (_, i) => client.delete(name, record.id, via(i))));
        expect(tally(responses)).to.deep.equal({ 204: 1, 404: PARALLEL - 1 });
        for (const res of responses.filter((r) => r.status === 404)) expectError(res, 404, notFound);
      });
    });

    describe(`${name}: a PATCH racing a DELETE`, () => {
      it('is either applied before the delete (200) or refused after it (404); nothing is left behind', async () => {
        // Which side wins a race is the machine's to decide, so the race asserts only what must
        // hold either way; the patch sent once the delete has answered is the 404 every run sees.
        const text = optionalTextField(collection);
        const records = await Promise.all(Array.from({ length: 8 }, () => client.given(name)));
        await Promise.all(records.map(async (record, i) => {
          const patch = (): Promise<Response> => client.update(name, record.id, { [text]: `late ${i}` }, via(i)).then((res) => res);
          const remove = (): Promise<Response> => client.delete(name, record.id, via(i + 1)).then((res) => res);
          // Patches on both sides of the delete, in both orders of sending.
          const [first, deleted, last] = i % 2 === 0
            ? await Promise.all([patch(), remove(), patch()])
            : await Promise.all([patch(), remove(), patch()].reverse()).then((r) => r.reverse());
          expect(deleted!.status).to.equal(204);
          for (const res of [first!, last!]) {
            expect(res.status, res.text).to.be.oneOf([200, 404]);
            if (res.status === 200) expect(res.body).to.deep.include({ ...record, [text]: `late ${i}`, updatedAt: res.body.updatedAt });
            else expectError(res, 404, notFound);
          }
          expectError(await patch(), 404, notFound);
          expectError(await client.get(name, record.id), 404, notFound);
          const stored = await testDatabase().db.collection(name).findOne({ versionId: tenant.version.id, id: record.id });
          expect(stored, 'a document was left behind').to.equal(null);
        }));
      });
    });
  }
});
