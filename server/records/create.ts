// Create: 201 with the stored record; 409 when a client-chosen id or the natural key is taken in the version.
import { Conflict } from '../errors.ts';
import { newId } from '../ids.ts';
import type { RecordAction } from './context.ts';
import { checkedRecord, fieldsOf, placeInVersion, withNaturalKey } from './record-body.ts';

export const create: RecordAction = async ({ store, version, body }) => {
  const fields = placeInVersion(fieldsOf(body), version.versionId);
  // Only an absent id is generated: `"id": null` is not a path_/req_ id, so the schema refuses it
  // (`??=` used to replace null with a new id, silently accepting an invalid body).
  if (fields['id'] === undefined) fields['id'] = newId(store.collection.idPrefix);
  const checked = checkedRecord(store.collection, fields);
  const record = await withNaturalKey(store.collection, () => store.insert(checked, new Date()));
  if (!record) throw new Conflict();
  return { status: 201, body: record };
};
