// The records room: the six operations on every collection of schemas/collections.json, over
// both families (records/table.ts), each documented from its collection's schemas
// (records/documentation.ts) and run against its collection's store.
import type { Route } from '../routes/route.ts';
import type { SchemaRegistry } from '../schemas/registry.ts';
import type { CatalogRecord, RecordStore } from '../store/records.ts';
import { collectionRouteDocs } from './documentation.ts';
import { routeTable } from './table.ts';
import { storeOf } from '../store/stores.ts';

/** What another room keeps beside a record, forgotten once the record is deleted (a service's parts). */
export type RecordDeleted = (collection: string, versionId: string, id: string) => Promise<void>;
/** What another room makes from records, told once one is created, replaced or updated (the record as stored). */
export type RecordWritten = (collection: string, versionId: string, record: CatalogRecord) => Promise<void>;

export function recordRoutes(schemas: SchemaRegistry, stores: ReadonlyMap<string, RecordStore>, deleted?: RecordDeleted, written?: RecordWritten): Route[] {
  const table = routeTable(schemas.collections);
  const docs = collectionRouteDocs(schemas, table);
  return table.map(({ family, collection, action, path }, index): Route => {
    const store = storeOf(stores, collection.name);
    return {
      method: action.method,
      path,
      target: family.name,
      access: action.access,
      body: action.body ? 'record' : false,
      ...(action.item && { checkId: collection.checkId }),
      doc: docs[index]!,
      run: async ({ version, id, body, query }) => {
        const outcome = await action.run({ store, version, id, body, query });
        // After the record, never before: a failure here leaves what is kept beside it, which nothing reads without the record.
        if (action.name === 'delete' && deleted) await deleted(collection.name, version.versionId, id);
        if (action.access === 'write' && action.name !== 'delete' && written && isRecord(outcome.body)) await written(collection.name, version.versionId, outcome.body);
        return outcome;
      },
    };
  });
}

function isRecord(body: unknown): body is CatalogRecord {
  return typeof body === 'object' && body !== null && typeof (body as { id?: unknown }).id === 'string';
}
