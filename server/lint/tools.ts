// The MCP tool get_lint: a service's stored lint findings, as GET {prefix}/services/{id}/lint answers them.
import { z } from 'zod';
import { serviceNamed } from '../pipeline/stages.ts';
import { READ_ONLY_TOOL, VERSION_ARG, type ToolRegistration, toolString } from '../routes/tool.ts';
import type { SchemaRegistry } from '../schemas/registry.ts';
import type { RecordStore } from '../store/records.ts';
import { storeOf } from '../store/stores.ts';
import type { Lints } from './lints.ts';
import { lintAnswer } from './routes.ts';
import { SEVERITIES } from './settings.ts';

export function lintTools(schemas: SchemaRegistry, stores: ReadonlyMap<string, RecordStore>, lints: Lints): ToolRegistration[] {
  const services = storeOf(stores, 'services');
  return [(server, answer) => {
    server.registerTool('get_lint', {
      description: 'The lint findings (Spectral: spectral:oas, OWASP, the project\'s own rules) of one service\'s OpenAPI description: each with its rule `code`, `severity`, `message`, JSON pointer `path` and, inside an operation, its `operation`. `status` says whether a lint of a later write is still pending. `severity` narrows the findings to one severity.',
      inputSchema: { version: VERSION_ARG, service: toolString().describe('Service slug or `svc_` id.'), severity: z.enum(SEVERITIES).optional().describe('Only findings of this severity.') },
      outputSchema: z.looseObject({ service: z.looseObject({}), status: z.enum(['current', 'pending', 'none', 'timed-out']), findings: z.array(z.looseObject({})).optional() }),
      annotations: READ_ONLY_TOOL,
    }, (args) => answer(async (reach) => {
      const version = await reach.version(args.version);
      const service = await serviceNamed(schemas, services, version.versionId, args.service, 'service');
      const report = await lints.findingsOf(version.versionId, service.id);
      const answered = lintAnswer({ id: service.id, slug: String(service['slug']) }, report);
      if (args.severity && answered.findings) answered.findings = answered.findings.filter((each) => each.severity === args.severity);
      return answered as unknown as Record<string, unknown>;
    }));
  }];
}
