// The records room: the six operations on every collection of schemas/collections.json, over
// both families (records/table.ts), each documented from its collection's schemas
// (records/documentation.ts) and run against its collection's store.
import type { Route } from '../routes/route.ts';
import type { SchemaRegistry } from '../schemas/registry.ts';
import type { RecordStore } from '../store/records.ts';
import { collectionRouteDocs } from './documentation.ts';
import { routeTable } from './table.ts';
import { storeOf } from '../store/stores.ts';

export function recordRoutes(schemas: SchemaRegistry, stores: ReadonlyMap<string, RecordStore>): Route[] {
  const table = routeTable(schemas.collections);
  const docs = collectionRouteDocs(schemas, table);
  return table.map(({ family, collection, action, path }, index): Route => {
    const store = storeOf(stores, collection.name);
    return {
      method: action.method,
      path,
      target: family.name,
      access: action.access,
      body: action.body ? 'json' : false,
      checksOwnQuery: action.name === 'list',
      ...(action.item && { checkId: collection.checkId }),
      doc: docs[index]!,
      run: ({ version, id, body, query }) => action.run({ store, version, id, body, query }),
    };
  });
}
