// The MCP tools of projects and versions: where an agent starts (list_projects, then
// list_versions), each reached as every tool reaches data (pipeline/tool-call.ts).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Credential } from '../auth/credential.ts';
import { READ_ONLY_TOOL, type Answer, type ToolRegistration, toolString } from '../routes/tool.ts';
import type { Project } from '../tenancy/projects.ts';
import type { Tenancy } from '../tenancy/tenancy.ts';

export function versionTools(tenancy: Tenancy): ToolRegistration[] {
  return [
    (server: McpServer, answer: Answer) => {
  server.registerTool('list_projects', {
    description: 'The projects this credential reaches (each holds catalog versions: list_versions).',
    inputSchema: {},
    outputSchema: { projects: z.array(z.looseObject({ id: z.string(), slug: z.string(), name: z.string() })) },
    annotations: READ_ONLY_TOOL,
  }, () => answer(async (reach) => {
    const projects = await reachableProjects(tenancy, reach.credential);
    return { projects: projects.map((project) => ({ id: project.id, slug: project.slug, name: project.name })) };
  }));
    },
    (server: McpServer, answer: Answer) => {
  server.registerTool('list_versions', {
    description: 'The versions (branches and environments) of a project the credential reaches.',
    inputSchema: { project: toolString().describe('Project id or slug.') },
    outputSchema: { versions: z.array(z.looseObject({ id: z.string(), type: z.string(), slug: z.string(), address: z.string() })) },
    annotations: READ_ONLY_TOOL,
  }, (args) => answer(async (reach) => {
    const projectId = await reach.project(args.project, 'project');
    const versions = await tenancy.versions.list(projectId);
    return {
      versions: versions.map((version) => ({
        id: version.id, type: version.type, slug: version.slug, address: `${args.project}/${version.type}/${version.slug}`,
        copiedFrom: version.copiedFrom, createdAt: version.createdAt.toISOString(),
      })),
    };
  }));
    },
  ];
}

/** The projects the credential reaches for read, by slug; none for a credential that cannot read. */
export async function reachableProjects(tenancy: Tenancy, credential: Credential): Promise<Project[]> {
  if (!credential.read) return [];
  if (credential.projects === 'all') return tenancy.projects.list();
  const found = await Promise.all([...credential.projects].map((id) => tenancy.projects.find(id)));
  return found.filter((project) => project !== null).sort((a, b) => a.slug.localeCompare(b.slug));
}
