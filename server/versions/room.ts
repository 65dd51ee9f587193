// The versions room: a project's versions (list, create or copy, get, delete, diff) and where an
// agent starts (list_projects, list_versions).
import type { Room } from '../routes/room.ts';
import type { VersionParts } from './operations.ts';
import { VERSIONS_TAG, versionRoutes } from './routes.ts';
import { versionTools } from './tools.ts';

export function versionsRoom(parts: VersionParts): Room {
  return { tags: [VERSIONS_TAG], routes: versionRoutes(parts), tools: versionTools(parts.tenancy) };
}
