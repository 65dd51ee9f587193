// The records room: the six operations on every collection of schemas/collections.json, over
// both families (records/table.ts), each documented from its collection's schemas
// (records/documentation.ts) and run against its collection's store.
import type { Outcome, ResolvedVersion, Route } from '../routes/route.ts';
import { newId } from '../ids.ts';
import { isObject } from '../json/values.ts';
import type { SchemaRegistry } from '../schemas/registry.ts';
import type { CatalogRecord, RecordStore } from '../store/records.ts';
import { collectionRouteDocs } from './documentation.ts';
import { routeTable } from './table.ts';
import { collectionStore } from '../store/stores.ts';

/**
 * Told of a record deleted, with the record as it stood (read just before): what another room
 * keeps beside it is forgotten (a service's parts), or the service it belonged to is owed a lint.
 */
export type RecordDeleted = (collection: string, version: { projectId: string; versionId: string }, record: Record<string, unknown>) => Promise<void>;
/** Told of a record created, replaced or updated, as stored (a service's description changed: its lint is owed). Never throws. */
export type RecordWritten = (collection: string, version: { projectId: string; versionId: string }, record: Record<string, unknown>) => Promise<void>;

/** A record write as another room sees it (change events): `write` runs the action, wrapped as the room needs. */
export interface RecordWrite {
  collection: string;
  action: 'create' | 'replace' | 'update' | 'delete';
  version: ResolvedVersion;
  id: string;
  /** The body as sent (a patch for an update). */
  body: unknown;
  store: RecordStore;
}
export type AroundRecordWrite = (write: RecordWrite, run: () => Promise<Outcome>) => Promise<Outcome>;

export function recordRoutes(schemas: SchemaRegistry, stores: ReadonlyMap<string, RecordStore>, { deleted, written, around }: { deleted?: RecordDeleted; written?: RecordWritten; around?: AroundRecordWrite } = {}): Route[] {
  const table = routeTable(schemas.collections);
  const docs = collectionRouteDocs(schemas, table);
  return table.map(({ family, collection, action, path }, index): Route => {
    const store = collectionStore(stores, collection.name);
    return {
      method: action.method,
      path,
      target: family.name,
      access: action.access,
      body: action.body ? 'record' : false,
      ...(action.item && { checkId: collection.checkId }),
      doc: docs[index]!,
      run: async ({ version, id, body, query }) => {
        const name = action.name;
        const writes = name === 'create' || name === 'replace' || name === 'update' || name === 'delete';
        // A new record's id is chosen here when the body has none (as create would), so that what wraps the write knows it.
        if (name === 'create' && isObject(body) && body['id'] === undefined) body['id'] = newId(collection.idPrefix);
        const recordId = name === 'create' && isObject(body) && typeof body['id'] === 'string' ? body['id'] : id;
        const act = () => action.run({ store, version, id, body, query });
        // What a deleted record was, for the rooms told of it: one read by id, only where one listens.
        const was = name === 'delete' && deleted ? await store.get(version.versionId, id) : null;
        const outcome = writes && around ? await around({ collection: collection.name, action: name, version, id: recordId, body, store }, act) : await act();
        // After the record, never before: a failure here leaves what is kept beside it, which nothing reads without the record.
        if (was && deleted) await deleted(collection.name, version, was);
        const stored = (outcome as { body?: unknown }).body;
        if (written && action.access === 'write' && action.name !== 'delete' && typeof stored === 'object' && stored !== null) await written(collection.name, version, stored as Record<string, unknown>);
        return outcome;
      },
    };
  });
}
