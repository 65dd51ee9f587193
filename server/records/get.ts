// Get one record of the version.
import { RecordNotFound } from '../errors.ts';
import type { RecordAction } from './context.ts';

export const get: RecordAction = async ({ store, version, id }) => {
  const record = await store.get(version.versionId, id);
  if (!record) throw new RecordNotFound(store.collection.notFound);
  return { status: 200, body: record };
};
