// First run on the embedded database: with no project at all, make a `demo` project with a
// `main` branch and a read-write key, so a newcomer can call the API straight away.
import type { Tenancy } from './tenancy.ts';

export interface Demo {
  projectId: string;
  versionId: string;
  secret: string;
}

export async function createDemoIfEmpty(tenancy: Tenancy): Promise<Demo | null> {
  if ((await tenancy.projects.count()) > 0) return null;
  const project = await tenancy.projects.create('demo', 'Demo project');
  const version = await tenancy.versions.create(project.id, 'branch', 'main');
  const { secret } = await tenancy.apiKeys.create(project.id, false);
  return { projectId: project.id, versionId: version.id, secret };
}

export function demoBanner(demo: Demo, baseUrl: string): string {
  return [
    '',
    'First run: created project "demo" with branch "main" and this read-write API key.',
    'It will not be shown again:',
    '',
    `  ${demo.secret}`,
    '',
    'Try it:',
    '',
    `  curl -H 'Authorization: Bearer ${demo.secret}' ${baseUrl}/v2/catalog/projects/demo/branch/main/paths`,
    '',
  ].join('\n');
}
