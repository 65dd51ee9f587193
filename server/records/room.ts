// The records room: the six operations on every collection of schemas/collections.json, each
// collection a tag of the document with its body schemas. No tools: agents read records through
// the other rooms' tools.
import type { Room } from '../routes/room.ts';
import type { SchemaRegistry } from '../schemas/registry.ts';
import type { RecordStore } from '../store/records.ts';
import { collectionBodySchemas, collectionTags } from './documentation.ts';
import { recordRoutes, type RecordDeleted, type RecordWritten } from './routes.ts';

export function recordsRoom({ schemas, stores, deleted, written }: { schemas: SchemaRegistry; stores: ReadonlyMap<string, RecordStore>; deleted?: RecordDeleted; written?: RecordWritten }): Room {
  return {
    tags: collectionTags(schemas.collections),
    routes: recordRoutes(schemas, stores, deleted, written),
    components: collectionBodySchemas(schemas.collections),
  };
}
