// The FerretDB this project builds deletes what a deleteMany matches in chunks
// (scripts/ferretdb/patches/delete_chunks.go): it bound every matched id in one SQL statement, and
// SQLite takes at most 32,766 variables a statement, so deleting more documents at once (a large
// version's parameters, when it is purged) failed with "too many SQL variables" and deleted none.
import { expect } from 'chai';
import { testDatabase } from '../support/database.ts';

const MORE_THAN_SQLITE_BINDS = 40_000;

describe('database: a deleteMany of more documents than one SQL statement binds', function () {
  this.timeout(300_000);
  after(() => testDatabase().db.collection('delete-probe').drop());

  it('deletes every one, and only those', async () => {
    const collection = testDatabase().db.collection<{ _id: string; versionId: string }>('delete-probe');
    const docs = Array.from({ length: MORE_THAN_SQLITE_BINDS }, (_, i) => ({ _id: `gone:${String(i).padStart(6, '0')}`, versionId: 'gone' }));
    for (let start = 0; start < docs.length; start += 10_000) await collection.insertMany(docs.slice(start, start + 10_000));
    await collection.insertOne({ _id: 'kept:1', versionId: 'kept' });
    const { deletedCount } = await collection.deleteMany({ versionId: 'gone' });
    expect(deletedCount).to.equal(MORE_THAN_SQLITE_BINDS);
    expect(await collection.countDocuments({})).to.equal(1);
  });
});
