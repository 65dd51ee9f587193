// Updates of one document at once. MongoDB applies each atomically and retries an upsert whose
// insert loses to another's; FerretDB 1.24 read, changed in Go and wrote back with nothing between
// (two `$inc`s both read 1 and wrote 2) and answered E11000 to the losing upsert, which made
// concurrent record writes to one service answer 500 (the score card's pending mark). The build's
// patch (scripts/ferretdb/patches/upsert_race.go) makes it behave as MongoDB; each upsert the
// service makes on a shared key holds when many run at once.
import { expect } from 'chai';
import { testDatabase } from '../support/database.ts';
import { ScoreStore } from '../../server/scores/store.ts';
import { LintReports } from '../../server/lint/reports.ts';
import { CursorPositions } from '../../server/store/positions.ts';

const AT_ONCE = 24;
const unique = (prefix: string) => `${prefix}${Math.random().toString(36).slice(2, 10)}`;

describe('Updates of one document at once', () => {
  it('are each applied by the database, updates and findAndModify alike', async () => {
    const collection = testDatabase().db.collection<{ _id: string; count?: number }>('upsertRaces');
    const [updated, found] = [unique('key_'), unique('key_')];
    await Promise.all(Array.from({ length: AT_ONCE }, () => collection.updateOne({ _id: updated }, { $inc: { count: 1 } }, { upsert: true })));
    await Promise.all(Array.from({ length: AT_ONCE }, () => collection.findOneAndUpdate({ _id: found }, { $inc: { count: 1 } }, { upsert: true })));
    expect(await collection.find({ _id: { $in: [updated, found] } }).sort({ _id: 1 }).toArray()).to.deep.equal([updated, found].sort().map((_id) => ({ _id, count: AT_ONCE })));
  });

  it('marks a score card pending from many writes at once, counting each', async () => {
    const scores = new ScoreStore(testDatabase().db);
    const [versionId, serviceId] = [unique('ver_race'), unique('svc_race')];
    const counts = await Promise.all(Array.from({ length: AT_ONCE }, () => scores.mark(versionId, serviceId)));
    expect([...counts].sort((a, b) => a - b)).to.deep.equal(Array.from({ length: AT_ONCE }, (_, at) => at + 1));
  });

  it('marks a lint owed from many writes at once', async () => {
    const reports = new LintReports(testDatabase().db);
    const [versionId, serviceId] = [unique('ver_race'), unique('svc_race')];
    await Promise.all(Array.from({ length: AT_ONCE }, () => reports.markPending('prj_race', versionId, serviceId)));
    expect((await reports.of(versionId, serviceId))?.pending).to.equal(true);
  });

  it('remembers one cursor position from many pages at once', async () => {
    const positions = new CursorPositions(testDatabase().db, 'paths');
    const versionId = unique('ver_race');
    const keys = [{ field: 'summary', direction: 1 }, { field: 'id', direction: 1 }] as const;
    await Promise.all(Array.from({ length: AT_ONCE }, () => positions.remember(versionId, keys, { _id: `${versionId}:path_1`, id: 'path_1', summary: 'same' })));
    expect(await positions.recall(versionId, keys, 'path_1')).to.deep.equal({ summary: 'same', id: 'path_1' });
  });
});
