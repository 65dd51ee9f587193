// The MCP tool `compare_versions`: GET {prefix}/changes for agents, with the same answer and the
// same reach (both versions resolved and authorized for read by the tools' own `inVersion`).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { RecordStore } from '../store/records.ts';
import type { ResolvedVersion } from '../versions/resolve.ts';
import { compareVersions } from './routes.ts';

export interface CompareToolParts {
  stores: ReadonlyMap<string, RecordStore>;
  version: z.ZodString;
  inVersion(ref: string, argument?: string): Promise<ResolvedVersion>;
  answer(work: () => Promise<Record<string, unknown>>): Promise<CallToolResult>;
}

export function registerCompareVersions(server: McpServer, { stores, version, inVersion, answer }: CompareToolParts): void {
  server.registerTool('compare_versions', {
    description: 'What changes for the clients of one version (`against`) when they move to another (`version`), per service: breaking and non-breaking changes, each with a stable rule id, the operation and one sentence.',
    inputSchema: {
      version: version.describe('The version clients move to: a version id (`ver_...`) or `project/type/slug`.'),
      against: version.describe('The version clients use now, in the same forms.'),
      service: z.string().optional().describe('Only this service (slug or id).'),
    },
    outputSchema: {
      summary: z.object({ breaking: z.number().int(), nonBreaking: z.number().int() }),
      changes: z.array(z.looseObject({ level: z.string(), rule: z.string(), message: z.string() })),
    },
  }, (args) => answer(async () => {
    const after = await inVersion(args.version);
    const before = await inVersion(args.against, 'against');
    return { ...await compareVersions(stores, before, after, args.service) };
  }));
}
