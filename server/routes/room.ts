// A room is one feature of the service, a plugin on the vocabulary of routes/: what it adds is
// what it declares here (routes the pipeline runs, MCP tools, the document's tags and schemas,
// routes it mounts itself). server/rooms.ts lists the rooms; the app, the MCP server and the
// OpenAPI document are all built from that list, so adding a room is one line there.
import type { Router } from 'express';
import type { DocumentedRoute, Schema, Tag } from './documentation.ts';
import type { Route } from './route.ts';
import type { ToolRegistration } from './tool.ts';

export interface Room {
  /** The document's groups for what the room adds (one, or one per collection for the records room). */
  tags: readonly Tag[];
  /** Routes the pipeline runs, documented beside their work. */
  routes?: readonly Route[];
  /** MCP tools. */
  tools?: readonly ToolRegistration[];
  /** Schemas the document shows under `components.schemas`, by name. */
  components?: Readonly<Record<string, Schema>>;
  /**
   * Routes the room mounts itself, outside the pipeline (pages, sign-in), as the document shows
   * them, and the router that serves them: made only when an app mounts it, not for the document.
   */
  own?: { documented: readonly DocumentedRoute[]; router(): Router };
}
