// The records room: the six operations on every collection of schemas/collections.json, over
// both families (records/table.ts), each documented from its collection's schemas
// (records/documentation.ts) and run against its collection's store.
import type { Route } from '../routes/route.ts';
import type { SchemaRegistry } from '../schemas/registry.ts';
import type { RecordStore } from '../store/records.ts';
import { collectionRouteDocs } from './documentation.ts';
import { routeTable } from './table.ts';

export function recordRoutes(schemas: SchemaRegistry, stores: ReadonlyMap<string, RecordStore>): Route[] {
  const table = routeTable(schemas.collections);
  const docs = collectionRouteDocs(schemas, table);
  return table.map(({ family, collection, operation, path }, index): Route => {
    const store = stores.get(collection.name)!;
    return {
      method: operation.method,
      path,
      target: family.name,
      access: operation.access,
      body: operation.body ? 'json' : false,
      checksOwnQuery: operation.name === 'list',
      ...(operation.item && { checkId: collection.checkId }),
      doc: docs[index]!,
      run: ({ version, id, body, query }) => operation.run({ store, version, id, body, query }),
    };
  });
}
