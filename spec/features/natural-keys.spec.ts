// Stored natural keys follow their declaration (server/store/natural-keys.ts): records without
// `_key` get it, a changed declaration remakes every record's key once, and keys the new
// declaration makes collide stop start-up naming the record. On the run's database, in a
// collection of its own.
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import type { Collection as MongoCollection, Document } from 'mongodb';
import type { CompiledCollection } from '../../server/schemas/registry.ts';
import { backfillKeys, KeysCollide, naturalKeyOf } from '../../server/store/natural-keys.ts';
import { testDatabase } from '../support/database.ts';

type Stored = Document & { _id: string };

describe('natural keys as stored', () => {
  let name: string;
  let documents: MongoCollection<Stored>;
  const declared = (naturalKey: string[]): CompiledCollection => ({ name, naturalKey }) as unknown as CompiledCollection;
  const keys = async (): Promise<Record<string, unknown>> =>
    Object.fromEntries((await documents.find({}).sort({ _id: 1 }).toArray()).map((document) => [document._id, document['_key']]));
  const startUp = (naturalKey: string[]): Promise<void> => backfillKeys(testDatabase().db, documents, declared(naturalKey), (document) => document);

  beforeEach(async () => {
    name = `natural-keys-${randomBytes(4).toString('hex')}`;
    documents = testDatabase().db.collection<Stored>(name);
    await documents.createIndex({ versionId: 1, _key: 1 }, { unique: true });
  });
  afterEach(async () => {
    await documents.drop();
    await testDatabase().db.collection<{ _id: string }>('naturalKeys').deleteOne({ _id: name });
  });

  it('gives records without a key theirs, and leaves the others alone while the declaration stands', async () => {
    await documents.insertMany([
      { _id: 'v:a', versionId: 'v', id: 'a', name: 'api_key' },
      { _id: 'v:b', versionId: 'v', id: 'b', name: 'token', _key: 'made by hand' },
    ]);
    await startUp(['name']);
    expect(await keys()).to.deep.equal({ 'v:a': '["api_key"]', 'v:b': '["token"]' });
    await documents.updateOne({ _id: 'v:b' }, { $set: { _key: 'made by hand' } });
    await documents.insertOne({ _id: 'v:c', versionId: 'v', id: 'c', name: 'oauth' });
    await startUp(['name']);
    expect(await keys()).to.deep.equal({ 'v:a': '["api_key"]', 'v:b': 'made by hand', 'v:c': '["oauth"]' });
  });

  it('remakes every key once when the declared fields change (security schemes: name → serviceId, name)', async () => {
    await documents.insertMany([
      { _id: 'v:a', versionId: 'v', id: 'a', name: 'api_key', _key: naturalKeyOf(['name'], { name: 'api_key' }) },
      { _id: 'v:b', versionId: 'v', id: 'b', name: 'token', serviceId: 'svc_1', _key: naturalKeyOf(['name'], { name: 'token' }) },
    ]);
    await startUp(['name']);
    await startUp(['serviceId', 'name']);
    expect(await keys()).to.deep.equal({ 'v:a': '[null,"api_key"]', 'v:b': '["svc_1","token"]' });
    const declaration = await testDatabase().db.collection<{ _id: string; fields?: string[] }>('naturalKeys').findOne({ _id: name });
    expect(declaration?.fields).to.deep.equal(['serviceId', 'name']);
  });

  it('stops, naming the record and the key, when the new declaration makes two records share a key', async () => {
    await documents.insertMany([
      { _id: 'v:a', versionId: 'v', id: 'a', name: 'api_key', serviceId: 'svc_1' },
      { _id: 'v:b', versionId: 'v', id: 'b', name: 'api_key', serviceId: 'svc_2' },
    ]);
    await startUp(['serviceId', 'name']);
    let error: unknown;
    try {
      await startUp(['name']);
    } catch (caught) {
      error = caught;
    }
    expect(error).to.be.instanceOf(KeysCollide);
    expect((error as Error).message).to.match(/record [ab] of version v has the natural key \["api_key"\] \(name\)/);
  });
});
