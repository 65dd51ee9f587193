// The run's database finds a document by `_id` through its `_id` index, never by scanning the
// collection: every record read, replace and delete by id depends on it. The FerretDB this project
// builds is patched for it (server/database/embedded/build-ferretdb.ts: FerretDB 1.24's SQLite
// backend wrote the lookup so that its own index was never used); MongoDB does it anyway.
import { expect } from 'chai';
import { testDatabase } from '../support/database.ts';

describe('database: a lookup by _id uses the _id index', function () {
  this.timeout(60_000);

  it('plans a find by _id as an index search, in a collection of 2,000 documents', async () => {
    const { db, server } = testDatabase();
    const collection = db.collection<{ _id: string; n: number }>('id-index-probe');
    await collection.insertMany(Array.from({ length: 2000 }, (_, n) => ({ _id: `ver_probe:rec_${String(n).padStart(5, '0')}`, n })));
    expect(await collection.findOne({ _id: 'ver_probe:rec_01234' })).to.deep.equal({ _id: 'ver_probe:rec_01234', n: 1234 });
    const explained = await db.command({ explain: { find: 'id-index-probe', filter: { _id: 'ver_probe:rec_01234' } } });
    const plan = JSON.stringify(explained['queryPlanner']);
    // FerretDB reports SQLite's plan ("SEARCH <table> USING INDEX <table>__id_"; unpatched: "SCAN <table>"); MongoDB its stages.
    if (server.kind === 'ferretdb') expect(plan).to.match(/SEARCH \S+ USING INDEX \S+__id_/).and.not.to.match(/SCAN /);
    else expect(plan).to.match(/IDHACK|EXPRESS_IXSCAN|IXSCAN/);
  });
});
