// The rooms of server/rooms.ts are what the service serves: each room's routes, tags and MCP
// tools come from its entry in the list, so a room left out of the list is nowhere.
import { expect } from 'chai';
import { pino } from 'pino';
import supertest from 'supertest';
import { createApp } from '../../server/app.ts';
import { declaredRooms, rooms, type RoomParts } from '../../server/rooms.ts';
import type { Room } from '../../server/routes/room.ts';
import { mcpAgents } from '../support/mcp.ts';
import { bearer, catalogForSuite, type SuiteCatalog } from '../support/catalog.ts';

interface OpenApi {
  tags: Array<{ name: string }>;
  paths: Record<string, Record<string, { tags: string[] }>>;
}

/** An Express path as the document writes it: `/versions/:versionId` → `/versions/{versionId}`. */
const documentPath = (path: string): string => path.replace(/:(\w+)/g, '{$1}');
const tagNames = (room: Room): string[] => room.tags.map((tag) => tag.name);

describe('Rooms: the list in server/rooms.ts is what the service serves', () => {
  let suite: SuiteCatalog;
  catalogForSuite((made) => { suite = made; });
  const without = (tag: string) => (parts: RoomParts) => rooms(parts).filter((room) => !tagNames(room).includes(tag));

  it('documents every route of every room under that room\'s own tags, the tags in the list\'s order', async () => {
    const document = (await suite.service.request.get('/v2/openapi.json').expect(200)).body as OpenApi;
    const listed = declaredRooms(suite.service.runtime.schemas);
    expect(document.tags.map((tag) => tag.name)).to.deep.equal(['Service', 'Agents', ...listed.flatMap(tagNames)]);
    for (const room of listed) {
      for (const route of room.routes ?? []) {
        const operation = document.paths[documentPath(route.path)]?.[route.method.toLowerCase()];
        expect(operation?.tags, `${route.method} ${route.path}`).to.have.length(1);
        expect(tagNames(room), `${route.method} ${route.path}`).to.include(operation!.tags[0]);
      }
      for (const route of room.own?.documented ?? []) expect(document.paths[documentPath(route.path)]?.[route.method.toLowerCase()]?.tags).to.deep.equal([route.tag]);
    }
  });

  describe('a room left out of the list', () => {
    const logger = pino({ level: 'silent' });
    let withoutSearch: ReturnType<typeof createApp>;
    before(() => {
      withoutSearch = createApp({ ...suite.service.runtime, logger }, without('Search'));
    });

    it('is not in the document: neither its tag nor its routes', async () => {
      const document = (await supertest(withoutSearch).get('/v2/openapi.json').expect(200)).body as OpenApi;
      const tags = document.tags.map((tag) => tag.name);
      expect(tags).to.not.include('Search');
      expect(tags).to.include('Versions');
      // (The pages room has a search page of its own, under /catalog.)
      expect(Object.keys(document.paths).filter((path) => path.startsWith('/v2/') && path.endsWith('/search'))).to.deep.equal([]);
    });

    it('serves none of its routes, while the other rooms serve theirs', async () => {
      const { key, prefixes } = suite.tenant;
      const res = await supertest(withoutSearch).get(`${prefixes.byId}/search?q=pets`).set(bearer(key));
      expect([res.status, res.body]).to.deep.equal([404, { error: 'Not found' }]);
      await supertest(withoutSearch).get(`${prefixes.byId}/paths`).set(bearer(key)).expect(200);
      await suite.service.request.get(`${prefixes.byId}/search?q=pets`).set(bearer(key)).expect(200);
    });

    it('adds none of its tools to MCP, while the other rooms add theirs (tools/list, as an agent does)', async () => {
      const toolsOf = async (app: ReturnType<typeof createApp>): Promise<string[]> => {
        const agents = await mcpAgents({ ...suite.service, app });
        try {
          const client = await agents.connect(suite.tenant.key);
          return (await client.listTools()).tools.map((tool) => tool.name).sort();
        } finally {
          await agents.close();
        }
      };
      const all = await toolsOf(suite.service.app);
      expect(all).to.include.members(['search_endpoints', 'get_endpoint', 'list_projects', 'compare_versions', 'list_insights']);
      expect(await toolsOf(withoutSearch)).to.deep.equal(all.filter((name) => name !== 'search_endpoints' && name !== 'get_endpoint'));
    });
  });
});
