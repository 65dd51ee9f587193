// The versions interface as endpoints, each with its documentation: list, create (or copy), get
// and delete by id or by address, and the diff of two versions, run by the one pipeline.
import { DEFAULT_LIMIT, MAX_LIMIT } from '../records/list-query.ts';
import type { Schema, Tag } from '../routes/documentation.ts';
import type { Route } from '../routes/route.ts';
import { FAMILIES } from '../routes/route.ts';
import { SCHEMA_BASE } from '../schemas/registry.ts';
import { VERSION_SCHEMA, versionOperations, type VersionParts } from './operations.ts';

const IDS = `${SCHEMA_BASE}defs/ids.json#/$defs/`;
const PROJECT = '/v2/catalog/projects/:projectRef';
const [BY_ID, BY_ADDRESS] = FAMILIES;

export const VERSIONS_TAG: Tag = {
  name: 'Versions',
  description: 'Catalog versions of a project: branches and environments. A copy keeps record ids; a deleted version is unreachable like an unknown one (403).',
};

const projectParams: Readonly<Record<string, Schema>> = { projectRef: { $ref: `${IDS}projectRef` } };
const versionResponse = (status: number, description: string) => ({ status, description, schema: { $ref: VERSION_SCHEMA } });

export function versionRoutes(parts: VersionParts): Route[] {
  const run = versionOperations(parts);
  const common = { body: false } as const;
  const tag = VERSIONS_TAG.name;
  return [
    {
      ...common, method: 'GET', path: `${PROJECT}/versions`, target: 'project', access: 'read', run: run.list,
      doc: {
        operationId: 'listVersions', tag, params: projectParams,
        summary: "List a project's versions",
        description: 'Keyset pagination in id (creation) order; versions being copied are not listed.',
        query: [
          { name: 'cursor', description: 'Continue from this version id: the `nextCursor` of the previous page.', schema: { $ref: `${IDS}versionId` } },
          { name: 'limit', description: `Page size, 1 to ${MAX_LIMIT}; default ${DEFAULT_LIMIT}.`, schema: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT }, invalid: `must be an integer from 1 to ${MAX_LIMIT}` },
          { name: 'type', description: 'Only versions of this type.', schema: { $ref: `${IDS}versionType` } },
        ],
        responses: [{ status: 200, description: 'One page of versions.', schema: { $ref: `${VERSION_SCHEMA}#/$defs/versionList` } }],
        errors: [],
      },
    },
    {
      ...common, method: 'POST', path: `${PROJECT}/versions`, target: 'project', access: 'write', body: 'json', longRunning: true, run: run.create,
      doc: {
        operationId: 'createVersion', tag, params: projectParams,
        summary: 'Create a version, empty or as a copy of another',
        description: '`copyFrom` (a version of the same project: its `ver_` id, `type/slug` such as `branch/main`, `project/type/slug`, or `{"type", "slug"}`) copies every record of every collection, keeping record ids; the new version is invisible until the copy is complete, and a failed copy leaves nothing behind.',
        body: { schema: { $ref: `${VERSION_SCHEMA}#/$defs/versionCreate` }, example: { type: 'branch', slug: 'feature-x' } },
        responses: [versionResponse(201, 'The version; `Location` names it.')],
        errors: [409, 413, 415],
      },
    },
    // By address: exactly three segments after `projects`, so it never shadows the record routes of family P.
    ...([['ById', BY_ID!], ['ByAddress', BY_ADDRESS!]] as const).flatMap(([suffix, family]): Route[] => [
      {
        ...common, method: 'GET', path: family.prefix, target: family.name, access: 'read', run: run.get,
        doc: { operationId: `getVersion${suffix}`, tag, params: family.params, summary: 'Get a version', responses: [versionResponse(200, 'The version.')], errors: [] },
      },
      {
        ...common, method: 'DELETE', path: family.prefix, target: family.name, access: 'write', longRunning: true, run: run.delete,
        doc: {
          operationId: `deleteVersion${suffix}`, tag, params: family.params,
          summary: 'Delete a version and its records',
          description: 'Answers once the records are removed; records written by requests that raced the delete are removed too.',
          responses: [{ status: 204, description: 'The version and its records are gone; no body.' }],
          errors: [],
        },
      },
    ]),
    {
      ...common, method: 'GET', path: `${BY_ID!.prefix}/diff`, target: 'V', access: 'read', longRunning: true, run: run.diff,
      doc: {
        operationId: 'diffVersions', tag, params: BY_ID!.params,
        summary: 'Compare two versions',
        description: 'Per collection, the ids added, removed and changed (any field but `updatedAt`) from `against` to this version; each list is capped at 1,000 ids with `truncated: true`. Both versions must be reachable by the credential.',
        query: [{
          name: 'against', description: 'The version to compare with: its `ver_` id, `type/slug` in this version\'s project (`branch/main`), or `project/type/slug`. The answer names it by id.', schema: { $ref: `${IDS}versionRef` }, required: true,
          invalid: 'must be a version id, type/slug or project/type/slug', missing: 'is required: the version to compare with',
        }],
        responses: [{ status: 200, description: 'The differences.', schema: { $ref: `${VERSION_SCHEMA}#/$defs/versionDiff` } }],
        errors: [],
      },
    },
  ];
}
