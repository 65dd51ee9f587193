// The MCP tool `compare_versions`: GET {prefix}/changes for agents, with the same answer and the
// same reach (both versions reached for read as every tool reaches one: pipeline/tool-call.ts).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { READ_ONLY_TOOL, type Answer, toolString } from '../routes/tool.ts';
import { compareVersions, type ComparedCatalog } from './routes.ts';

export interface CompareToolParts {
  version: z.ZodString;
  answer: Answer;
}

export function registerCompareVersions(server: McpServer, catalog: ComparedCatalog, { version, answer }: CompareToolParts): void {
  server.registerTool('compare_versions', {
    description: 'What changes for the clients of one version (`against`) when they move to another (`version`), per service: breaking and non-breaking changes, each with a stable rule id, the operation and one sentence.',
    inputSchema: {
      version: version.describe('The version clients move to: a version id (`ver_...`) or `project/type/slug`.'),
      against: version.describe('The version clients use now, in the same forms.'),
      service: toolString().optional().describe('Only this service (slug or `svc_` id, on either side).'),
    },
    annotations: READ_ONLY_TOOL,
    outputSchema: {
      summary: z.object({ breaking: z.number().int(), nonBreaking: z.number().int(), planned: z.number().int() }),
      changes: z.array(z.looseObject({ level: z.string(), rule: z.string(), message: z.string() })),
    },
  }, (args) => answer(async (reach) => {
    const after = await reach.version(args.version);
    const before = await reach.version(args.against, 'against');
    return { ...await compareVersions(catalog, before, after, args.service) };
  }, { longRunning: true }));
}
