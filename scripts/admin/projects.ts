// `project create` and `project list`, plus resolving a project REF (id or slug), which the
// other command groups share.
import type { Project } from '../../server/tenancy/projects.ts';
import type { Tenancy } from '../../server/tenancy/tenancy.ts';
import { CommandError, optionalString, requiredString, type Command } from './command.ts';
import { projectJson, table } from './output.ts';
import { checkAgainst, checkNotBlank } from './validate.ts';

/** The project a REF names, or a CommandError (exit 1) saying which REF is unknown. */
export async function resolveProject(tenancy: Tenancy, ref: string): Promise<Project> {
  const project = await tenancy.projects.find(ref);
  if (!project) throw new CommandError(`project "${ref}" not found (give a project id or slug; see: admin project list)`);
  return project;
}

export const REF_OPTION = { type: 'string', value: 'REF', description: 'project id (proj_…) or slug' } as const;

const projectTable = (projects: readonly Project[]) =>
  table(['id', 'slug', 'name', 'created'], projects.map((p) => [p.id, p.slug, p.name, p.createdAt.toISOString()]));

export const projectCommands: readonly Command[] = [
  {
    group: 'project',
    name: 'create',
    summary: 'create a project',
    synopsis: '--slug S [--name N]',
    options: {
      slug: { type: 'string', value: 'S', description: 'lower-case letters, digits and -, 1 to 100 characters; unique' },
      name: { type: 'string', value: 'N', description: 'display name (default: the slug)' },
    },
    prepare(args, schemas) {
      const slug = checkAgainst(schemas, 'projectSlug', requiredString(args, 'slug'), '--slug');
      const name = checkNotBlank(optionalString(args, 'name') ?? slug, '--name');
      return async ({ tenancy }) => {
        // DuplicateSlug carries a clear message and is reported as exit 1 by the entry point.
        const project = await tenancy.projects.create(slug, name);
        return { json: projectJson(project), human: projectTable([project]) };
      };
    },
  },
  {
    group: 'project',
    name: 'list',
    summary: 'list all projects, by slug',
    synopsis: '',
    options: {},
    prepare() {
      return async ({ tenancy }) => {
        const projects = await tenancy.projects.list();
        return {
          json: { projects: projects.map(projectJson) },
          human: projects.length === 0 ? 'No projects yet; create one with: admin project create --slug S\n' : projectTable(projects),
        };
      };
    },
  },
];
