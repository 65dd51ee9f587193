// `version create` and `version list`: the catalog versions (branches, environments) of a project.
import { DuplicateSlug, type Version, type VersionType } from '../../server/tenancy/tenancy.ts';
import { CommandError, requiredString, type Command } from './command.ts';
import { table, versionJson } from './output.ts';
import { REF_OPTION, resolveProject } from './projects.ts';
import { checkAgainst } from './validate.ts';

const versionTable = (versions: readonly Version[]) =>
  table(['id', 'type', 'slug', 'created'], versions.map((v) => [v.id, v.type, v.slug, v.createdAt.toISOString()]));

export const versionCommands: readonly Command[] = [
  {
    group: 'version',
    name: 'create',
    summary: 'create a catalog version (a branch or an environment) in a project',
    synopsis: '--project REF --type branch|environment --slug S',
    options: {
      project: REF_OPTION,
      type: { type: 'string', value: 'T', description: 'branch or environment' },
      slug: { type: 'string', value: 'S', description: 'unique within the project and type, e.g. main or production' },
    },
    prepare(args, catalog) {
      const ref = checkAgainst(catalog, 'projectRef', requiredString(args, 'project'), '--project');
      const type = checkAgainst(catalog, 'versionType', requiredString(args, 'type'), '--type') as VersionType;
      const slug = checkAgainst(catalog, 'versionSlug', requiredString(args, 'slug'), '--slug');
      return async ({ tenancy }) => {
        const project = await resolveProject(tenancy, ref);
        try {
          const version = await tenancy.createVersion(project.id, type, slug);
          return { json: versionJson(version), human: versionTable([version]) };
        } catch (error) {
          // Tenancy says "in this project"; on the command line, name the project.
          if (error instanceof DuplicateSlug) throw new CommandError(`${type} "${slug}" already exists in project "${project.slug}"`);
          throw error;
        }
      };
    },
  },
  {
    group: 'version',
    name: 'list',
    summary: "list a project's catalog versions, by type and slug",
    synopsis: '--project REF',
    options: { project: REF_OPTION },
    prepare(args, catalog) {
      const ref = checkAgainst(catalog, 'projectRef', requiredString(args, 'project'), '--project');
      return async ({ tenancy }) => {
        const project = await resolveProject(tenancy, ref);
        const versions = await tenancy.listVersions(project.id);
        return {
          json: { versions: versions.map(versionJson) },
          human: versions.length === 0 ? `Project "${project.slug}" has no versions yet.\n` : versionTable(versions),
        };
      };
    },
  },
];
