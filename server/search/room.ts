// The search room: GET {prefix}/search, and the tools search_endpoints and get_endpoint.
import type { Room } from '../routes/room.ts';
import { SEARCH_TAG, searchEndpoints } from './routes.ts';
import { searchTools, type SearchToolParts } from './tools.ts';
import { storeOf } from '../store/stores.ts';

export function searchRoom(parts: SearchToolParts): Room {
  return {
    tags: [SEARCH_TAG],
    routes: searchEndpoints({ indexes: parts.searchIndexes, observations: parts.observations, schemas: parts.schemas, services: storeOf(parts.stores, 'services') }),
    tools: searchTools(parts),
  };
}
