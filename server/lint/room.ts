// The lint room: each service's description linted with Spectral behind the writes that change
// it (lints.ts), its findings over HTTP and MCP (get_lint), and the project's lint settings.
// server/rooms.ts wires the writes of the other rooms to it.
import type { Room } from '../routes/room.ts';
import type { SchemaRegistry } from '../schemas/registry.ts';
import type { RecordStore } from '../store/records.ts';
import type { Linted, Lints } from './lints.ts';
import { LINT_TAG, lintRoutes } from './routes.ts';
import { lintTools } from './tools.ts';

export interface LintParts {
  schemas: SchemaRegistry;
  stores: ReadonlyMap<string, RecordStore>;
  lints: Lints;
  /** Called after each lint report is stored (server/rooms.ts wires what recomputes from it); `lints.findingsOf` reads the report. */
  linted?: Linted;
}

export function lintRoom({ schemas, stores, lints, linted }: LintParts): Room {
  if (linted) lints.linted = linted;
  return { tags: [LINT_TAG], routes: lintRoutes(schemas, stores, lints), tools: lintTools(schemas, stores, lints) };
}
