// Delete: 204 with no body; deleting again is 404.
import { RecordNotFound } from '../errors.ts';
import type { RecordAction } from './context.ts';

export const remove: RecordAction = async ({ store, version, id }) => {
  const deleted = await store.exclusive(version.versionId, id, () => store.delete(version.versionId, id));
  if (!deleted) throw new RecordNotFound(store.collection.notFound);
  return { status: 204 };
};
