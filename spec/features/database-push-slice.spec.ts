// The FerretDB this project builds honours `$slice` in a `$push` with `$each`, as MongoDB does
// (scripts/ferretdb/patches/push_slice.go): FerretDB 1.24 accepted it and ignored it, so a list
// capped this way (a version's recent writes, tenancy/revisions.ts) grew with every update.
import { expect } from 'chai';
import { MongoServerError } from 'mongodb';
import { testDatabase } from '../support/database.ts';

interface Probe { _id: string; list?: number[] }

describe('database: $push with $each and $slice', function () {
  this.timeout(60_000);
  const probes = () => testDatabase().db.collection<Probe>('push-slice-probe');
  after(() => probes().drop());

  /** The list after pushing `each` onto `list` (absent: no field) with this `$slice`. */
  async function pushed(list: number[] | undefined, each: number[], slice: unknown): Promise<number[] | undefined> {
    const _id = `probe-${Math.random()}`;
    await probes().insertOne(list === undefined ? { _id } : { _id, list });
    await probes().updateOne({ _id }, { $push: { list: { $each: each, $slice: slice as number } } });
    return (await probes().findOne({ _id }))?.list;
  }

  it('keeps the last n for a negative $slice, the first n for a positive one, none for zero', async () => {
    expect(await pushed([1, 2, 3], [4, 5], -3)).to.deep.equal([3, 4, 5]);
    expect(await pushed([1, 2, 3], [4, 5], 2)).to.deep.equal([1, 2]);
    expect(await pushed([1, 2, 3], [4, 5], 0)).to.deep.equal([]);
  });

  it('keeps the whole list when it is no longer than the slice, a new field included', async () => {
    expect(await pushed([1], [2], -5)).to.deep.equal([1, 2]);
    expect(await pushed([1], [2], 5)).to.deep.equal([1, 2]);
    expect(await pushed(undefined, [7, 8, 9], -2)).to.deep.equal([8, 9]);
  });

  it('cuts with an empty $each too, and takes a whole double', async () => {
    expect(await pushed([1, 2, 3, 4], [], -2)).to.deep.equal([3, 4]);
    expect(await pushed([1, 2, 3, 4], [5], -2.0)).to.deep.equal([4, 5]);
  });

  it('refuses a $slice that is not a whole number, and leaves the list as it was', async () => {
    await probes().insertOne({ _id: 'fractional', list: [1, 2] });
    const refused = await probes().updateOne({ _id: 'fractional' }, { $push: { list: { $each: [3], $slice: 1.5 } } }).then(() => undefined, (error: unknown) => error);
    expect(refused).to.be.instanceOf(MongoServerError);
    expect((refused as MongoServerError).code).to.equal(2);
    expect((await probes().findOne({ _id: 'fractional' }))?.list).to.deep.equal([1, 2]);
  });

  it('caps a list over many updates, as the version document caps its recent writes', async () => {
    await probes().insertOne({ _id: 'capped', list: [] });
    for (let i = 0; i < 40; i++) await probes().updateOne({ _id: 'capped' }, { $push: { list: { $each: [i], $slice: -16 } } });
    expect((await probes().findOne({ _id: 'capped' }))?.list).to.deep.equal(Array.from({ length: 16 }, (_, i) => 24 + i));
  });
});
