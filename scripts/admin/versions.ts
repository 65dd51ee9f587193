// `version create`, `version list` and `version delete`: the catalog versions (branches,
// environments) of a project, through the same version manager as the HTTP interface.
import { versionEvents } from '../../server/room-events.ts';
import { DuplicateSlug } from '../../server/tenancy/stored.ts';
import type { Version, VersionType } from '../../server/tenancy/versions.ts';
import { CommandError, optionalString, requiredString, type Command } from './command.ts';
import { table, versionJson } from './output.ts';
import { REF_OPTION, resolveProject } from './projects.ts';
import { checkAgainst } from './validate.ts';

const versionTable = (versions: readonly Version[]) =>
  table(['id', 'type', 'slug', 'created'], versions.map((v) => [v.id, v.type, v.slug, v.createdAt.toISOString()]));

export const versionCommands: readonly Command[] = [
  {
    group: 'version',
    name: 'create',
    summary: 'create a catalog version (a branch or an environment) in a project, empty or as a copy',
    synopsis: '--project REF --type branch|environment --slug S [--copy-from VERSION_ID]',
    options: {
      project: REF_OPTION,
      type: { type: 'string', value: 'T', description: 'branch or environment' },
      slug: { type: 'string', value: 'S', description: 'unique within the project and type, e.g. main or production' },
      'copy-from': { type: 'string', value: 'VERSION_ID', description: 'start with a copy of every record of this version of the same project (ids kept)' },
    },
    prepare(args, schemas) {
      const ref = checkAgainst(schemas, 'projectRef', requiredString(args, 'project'), '--project');
      const type = checkAgainst(schemas, 'versionType', requiredString(args, 'type'), '--type') as VersionType;
      const slug = checkAgainst(schemas, 'versionSlug', requiredString(args, 'slug'), '--slug');
      const given = optionalString(args, 'copy-from');
      const copyFrom = given === undefined ? null : checkAgainst(schemas, 'versionId', given, '--copy-from');
      return async ({ tenancy, versionManager, events }) => {
        const project = await resolveProject(tenancy, ref);
        if (copyFrom !== null) {
          const source = await tenancy.versions.find(copyFrom);
          if (!source || source.projectId !== project.id) throw new CommandError(`version "${copyFrom}" not found in project "${project.slug}"`);
        }
        try {
          // Recorded with the write as over HTTP, so a subscription hears of it (docs/events.md).
          const made = { kind: copyFrom === null ? 'created' : 'copied', projectId: project.id, type, slug, ...(copyFrom !== null && { copiedFrom: copyFrom }) } as const;
          const version = await versionEvents(events)(made, () => versionManager.create(project.id, type, slug, copyFrom));
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
    prepare(args, schemas) {
      const ref = checkAgainst(schemas, 'projectRef', requiredString(args, 'project'), '--project');
      return async ({ tenancy }) => {
        const project = await resolveProject(tenancy, ref);
        const versions = await tenancy.versions.list(project.id);
        return {
          json: { versions: versions.map(versionJson) },
          human: versions.length === 0 ? `Project "${project.slug}" has no versions yet.\n` : versionTable(versions),
        };
      };
    },
  },
  {
    group: 'version',
    name: 'delete',
    summary: 'delete a catalog version and all its records',
    synopsis: 'VERSION_ID',
    options: {},
    positional: { name: 'VERSION_ID', description: 'the version to delete (ver_…)' },
    prepare(args, schemas) {
      const id = checkAgainst(schemas, 'versionId', args.positionals[0]!, 'VERSION_ID');
      return async ({ tenancy, versionManager, events }) => {
        const version = await tenancy.versions.find(id);
        const gone = version && { kind: 'deleted', projectId: version.projectId, type: version.type, slug: version.slug, versionId: version.id } as const;
        if (!version || !gone || !(await versionEvents(events)(gone, () => versionManager.delete(version)))) throw new CommandError(`version "${id}" not found`);
        return { json: { deleted: versionJson(version) }, human: `Deleted ${version.type} "${version.slug}" (${version.id}) and its records.\n` };
      };
    },
  },
];
