// The API descriptions room: OpenAPI documents in (import, with its changes report and gate) and
// out (export), and the tools list_services and get_openapi.
import type { Room } from '../routes/room.ts';
import type { SchemaRegistry } from '../schemas/registry.ts';
import type { RecordLimits } from '../store/record-cost.ts';
import type { RecordStore } from '../store/records.ts';
import type { ImportGate } from './import-gate.ts';
import { DESCRIPTIONS_TAG, descriptionRoutes, type ImportHooks } from './routes.ts';
import { descriptionTools } from './tools.ts';

export interface DescriptionParts extends ImportHooks {
  schemas: SchemaRegistry;
  stores: ReadonlyMap<string, RecordStore>;
  recordLimits: RecordLimits;
  /** The one gate all imports of the process pass. */
  importGate: ImportGate;
}

export function descriptionsRoom(parts: DescriptionParts): Room {
  return {
    tags: [DESCRIPTIONS_TAG],
    routes: descriptionRoutes(parts.stores, parts.schemas, parts.recordLimits, parts, (req, res) => parts.importGate.enter(req, res)),
    tools: descriptionTools(parts.schemas, parts.stores, parts.serviceParts),
  };
}
