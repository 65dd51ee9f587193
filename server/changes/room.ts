// The changes room: what changes for clients between two versions (GET {prefix}/changes) and
// the tool compare_versions. The import's own report and gate are lent to the descriptions
// room by server/rooms.ts (changes/imports.ts).
import type { Room } from '../routes/room.ts';
import { VERSION_ARG } from '../routes/tool.ts';
import type { SchemaRegistry } from '../schemas/registry.ts';
import type { RecordStore } from '../store/records.ts';
import type { Tenancy } from '../tenancy/tenancy.ts';
import { CHANGES_TAG, changeRoutes } from './routes.ts';
import { registerCompareVersions } from './tools.ts';

export function changesRoom({ schemas, stores, tenancy }: { schemas: SchemaRegistry; stores: ReadonlyMap<string, RecordStore>; tenancy: Pick<Tenancy, 'revisions'> }): Room {
  // Read on a comparison only: the declared rooms (the document) have no tenancy.
  const catalog = { schemas, stores, get revisions() { return tenancy.revisions; } };
  return {
    tags: [CHANGES_TAG],
    routes: changeRoutes(catalog),
    tools: [(server, answer) => registerCompareVersions(server, catalog, { version: VERSION_ARG, answer })],
  };
}
