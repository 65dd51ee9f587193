// Where issued cursors pointed, kept in the database: any store (any instance) recalls what
// another remembered, keyed apart by collection, version, sort and direction, until it expires.
import { expect } from 'chai';
import { testDatabase } from '../support/database.ts';
import { CursorPositions } from '../../server/store/positions.ts';

describe('Cursor positions in the database', () => {
  const bySummary = [{ field: 'summary', direction: 1 }, { field: 'id', direction: 1 }] as const;
  const item = (id: string, summary: string) => ({ _id: `v:${id}`, id, summary, kvStorage: { big: 'x' } });
  const versionId = () => `ver_pos${Math.random().toString(36).slice(2, 10)}`;

  it('recalls, on another store over the same database, the sort values of an item, and nothing else of it', async () => {
    const version = versionId();
    const issuing = new CursorPositions(testDatabase().db, 'paths');
    await issuing.createIndexes();
    await issuing.remember(version, bySummary, item('path_1', 'c'));
    const resuming = new CursorPositions(testDatabase().db, 'paths');
    expect(await resuming.recall(version, bySummary, 'path_1')).to.deep.equal({ summary: 'c', id: 'path_1' });
  });

  it('keeps collections, versions, sorts and directions apart', async () => {
    const version = versionId();
    const positions = new CursorPositions(testDatabase().db, 'paths');
    await positions.remember(version, bySummary, item('path_1', 'c'));
    expect(await new CursorPositions(testDatabase().db, 'requests').recall(version, bySummary, 'path_1')).to.equal(undefined);
    expect(await positions.recall(versionId(), bySummary, 'path_1')).to.equal(undefined);
    expect(await positions.recall(version, [{ field: 'summary', direction: -1 }, { field: 'id', direction: 1 }], 'path_1')).to.equal(undefined);
    expect(await positions.recall(version, [{ field: 'path', direction: 1 }, { field: 'id', direction: 1 }], 'path_1')).to.equal(undefined);
  });

  it('forgets after its time to live, whether or not the TTL monitor has run', async () => {
    const version = versionId();
    const positions = new CursorPositions(testDatabase().db, 'paths', 0);
    await positions.remember(version, bySummary, item('path_1', 'c'));
    expect(await positions.recall(version, bySummary, 'path_1')).to.equal(undefined);
  });

  it('has a TTL index on expiresAt where the database has them, else deletes expired positions itself', async () => {
    const positions = new CursorPositions(testDatabase().db, 'paths', 0);
    await positions.createIndexes();
    const indexes = await testDatabase().db.collection('cursorPositions').indexes();
    if (testDatabase().server.kind === 'mongodb') {
      expect(indexes.find((index) => index.name === 'expiresAt_ttl')).to.include({ expireAfterSeconds: 0 });
    } else {
      expect(indexes.map((index) => index.name)).to.include('expiresAt');
      await positions.remember(versionId(), bySummary, item('path_1', 'c'));
      expect(await testDatabase().db.collection('cursorPositions').countDocuments({ expiresAt: { $lte: new Date() } })).to.equal(0);
    }
  });
});
