// The MCP tool of scores, `get_service_score`: a service's score card for agents, to prefer its
// well-documented operations and beware of its look-alikes, as GET …/services/{id}/score answers it.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { serviceNamed } from '../pipeline/stages.ts';
import { READ_ONLY_TOOL, VERSION_ARG, type Answer, type ToolRegistration, toolString } from '../routes/tool.ts';
import { storeOf } from '../store/stores.ts';
import { scoreAnswer, type ScoreRouteParts } from './routes.ts';

export function scoreTools(parts: ScoreRouteParts): ToolRegistration[] {
  return [(server: McpServer, answer: Answer) => {
    server.registerTool('get_service_score', {
      description: 'A service\'s score card: its score 0–100 and subscores (documentation, security, agentReadiness, findability, confusability), hotspots (its lowest operations), the operations its own texts do not find in search, look-alike pairs (operations a search for one ranks the other first, with what tells them apart) and each operation\'s subscores and fixes (a service of more than 300 operations has findability and confusability from an even spread of 300: `probed`). Prefer operations with high scores; when calling one with look-alikes, check it is the one meant.',
      inputSchema: { version: VERSION_ARG, service: toolString().describe('The service (slug or `svc_` id).') },
      outputSchema: {
        service: z.looseObject({}), pending: z.boolean(), computedAt: z.string().optional(), score: z.number().optional(),
        subscores: z.record(z.string(), z.number()).optional(), hit1: z.number().optional(), hit5: z.number().optional(),
        ranking: z.enum(['hybrid', 'lexical']).optional(), probed: z.object({ operations: z.number(), of: z.number() }).optional(), hotspots: z.array(z.string()).optional(), unfound: z.array(z.string()).optional(),
        lookAlikes: z.array(z.looseObject({})).optional(), operations: z.array(z.looseObject({})).optional(),
      },
      annotations: READ_ONLY_TOOL,
    }, (args) => answer(async (reach) => {
      const version = await reach.version(args.version);
      const service = await serviceNamed(parts.schemas, storeOf(parts.stores, 'services'), version.versionId, args.service, 'service');
      return scoreAnswer(parts.scores, version.versionId, service);
    }));
  }];
}
