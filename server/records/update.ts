// Partial update (PATCH): each supplied top-level field replaces that field's whole value.
// The merged record must still be valid; the write sets only the supplied fields, in one
// atomic update, so concurrent patches of different fields all survive.
import { InvalidRequest, RecordNotFound } from '../errors.ts';
import { escapeToken } from '../json/pointer.ts';
import type { RecordAction } from './context.ts';
import { checkedRecord, fieldsOf, placeInVersion, requireSameId, withNaturalKey } from './record-body.ts';

export const update: RecordAction = async ({ store, version, id, body }) => {
  const { collection } = store;
  const patch = fieldsOf(body);
  const unknown = Object.keys(patch).filter((field) => !collection.fields.has(field));
  if (unknown.length > 0) {
    throw new InvalidRequest(unknown.map((field) => ({ field: `/${escapeToken(field)}`, message: 'is not a known field' })));
  }
  placeInVersion(patch, version.versionId);
  requireSameId(patch, id);
  const { id: _id, versionId: _versionId, ...changes } = patch;

  const record = await store.exclusive(version.versionId, id, async () => {
    const current = await store.get(version.versionId, id);
    if (!current) throw new RecordNotFound(collection.notFound);
    const { updatedAt: _updatedAt, ...stored } = current;
    // Decoded records print -0 through JSON.rawJSON objects; the schema must see plain JSON.
    const merged = checkedRecord(collection, { ...JSON.parse(JSON.stringify(stored)), ...changes });
    return withNaturalKey(collection, () => store.update(version.versionId, id, changes, new Date(), merged));
  });
  if (!record) throw new RecordNotFound(collection.notFound);
  return { status: 200, body: record };
};
