// The changes room: what changes for clients between two versions (GET {prefix}/changes) and
// the tool compare_versions. The import's own report and gate are lent to the descriptions
// room by server/rooms.ts (changes/imports.ts).
import type { Room } from '../routes/room.ts';
import { VERSION_ARG } from '../routes/tool.ts';
import type { SchemaRegistry } from '../schemas/registry.ts';
import type { RecordStore } from '../store/records.ts';
import { CHANGES_TAG, changeRoutes } from './routes.ts';
import { registerCompareVersions } from './tools.ts';

export function changesRoom({ schemas, stores }: { schemas: SchemaRegistry; stores: ReadonlyMap<string, RecordStore> }): Room {
  return {
    tags: [CHANGES_TAG],
    routes: changeRoutes(schemas, stores),
    tools: [(server, answer) => registerCompareVersions(server, { schemas, stores, version: VERSION_ARG, answer })],
  };
}
