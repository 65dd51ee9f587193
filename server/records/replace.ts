// Replace: the body is the whole record; fields not sent are gone (defaults re-applied).
// 200 when it replaced a record, 201 when the id was free in that version; 409 when the natural key is another record's.
import type { RecordAction } from './context.ts';
import { checkedRecord, fieldsOf, placeInVersion, requireSameId, withNaturalKey } from './record-body.ts';

export const replace: RecordAction = async ({ store, version, id, body }) => {
  const fields = placeInVersion(fieldsOf(body), version.versionId);
  requireSameId(fields, id);
  const record = checkedRecord(store.collection, { ...fields, id });
  const result = await store.exclusive(version.versionId, id, () => withNaturalKey(store.collection, () => store.replace(record, new Date())));
  return { status: result.created ? 201 : 200, body: result.record };
};
