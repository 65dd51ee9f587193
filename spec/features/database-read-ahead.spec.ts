// The FerretDB this project builds makes a find cursor's next documents while the client decodes
// the last batch (scripts/ferretdb/patches/read_ahead.go). What a cursor returns must not change:
// every document once, in the order asked, however the batches fall against what was read ahead,
// and a cursor given up early frees what it read ahead (the next reads are answered).
import { expect } from 'chai';
import { testDatabase } from '../support/database.ts';

const DOCUMENTS = 5_000;

describe('database: a find cursor read ahead returns what it returned before', function () {
  this.timeout(300_000);
  const probe = () => testDatabase().db.collection<{ _id: string; n: number; group: string }>('read-ahead-probe');

  before(async () => {
    const docs = Array.from({ length: DOCUMENTS }, (_, n) => ({ _id: `doc:${String(n).padStart(5, '0')}`, n, group: n % 3 === 0 ? 'third' : 'rest' }));
    await probe().insertMany(docs);
  });
  after(() => probe().drop());

  for (const batchSize of [1, 100, 999, 1000, 1001, 4000]) {
    it(`every document once, in order, in batches of ${batchSize}`, async () => {
      const read = await probe().find({}, { batchSize }).sort({ _id: 1 }).toArray();
      expect(read.map(({ n }) => n)).to.deep.equal(Array.from({ length: DOCUMENTS }, (_, n) => n));
    });
  }

  it('a filtered read without a sort: each matching document once', async () => {
    const read = await probe().find({ group: 'third' }, { batchSize: 700 }).toArray();
    expect(read.map(({ n }) => n).sort((a, b) => a - b)).to.deep.equal(Array.from({ length: Math.ceil(DOCUMENTS / 3) }, (_, i) => i * 3));
  });

  it('cursors given up after their first batch, many at once, leave later reads answered', async () => {
    for (let round = 0; round < 20; round++) {
      const cursors = Array.from({ length: 10 }, () => probe().find({}, { batchSize: 10 }));
      await Promise.all(cursors.map(async (cursor) => {
        expect(await cursor.next()).to.not.equal(null);
        await cursor.close();
      }));
    }
    expect(await probe().countDocuments({})).to.equal(DOCUMENTS);
    expect((await probe().find({}).limit(3).sort({ _id: -1 }).toArray()).map(({ n }) => n)).to.deep.equal([DOCUMENTS - 1, DOCUMENTS - 2, DOCUMENTS - 3]);
  });
});
