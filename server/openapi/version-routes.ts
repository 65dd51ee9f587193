// The versions interface (server/versions/routes.ts) as documented routes: list, create (or
// copy), get and delete by id or by address, and the diff of two versions.
import { DEFAULT_LIMIT, MAX_LIMIT } from '../operations/list-query.ts';
import { SCHEMA_BASE } from '../schemas/registry.ts';
import type { DocumentedRoute, Schema, Tag } from './documented-route.ts';
import { FAMILY_PARAMS } from './collection-routes.ts';
import { FAMILIES } from '../routes/table.ts';
import { INTEGRITY_SEGMENT } from '../routes/version-routes.ts';

const IDS = `${SCHEMA_BASE}defs/ids.json#/$defs/`;
const VERSION = `${SCHEMA_BASE}api/version.json`;
const PROJECT = '/v2/catalog/projects/:projectRef';
const BY_ID = '/v2/catalog/versions/:versionId';
const BY_ADDRESS = `${PROJECT}/:versionType/:versionSlug`;

export const INTEGRITY_TAG: Tag = {
  name: 'Integrity',
  description: 'References between records are not enforced on write; this report lists the dangling ones of a version.',
};

/** GET {prefix}/integrity on both families (server/routes/version-routes.ts). */
export const integrityRouteDocs: readonly DocumentedRoute[] = FAMILIES.map((family) => ({
  method: 'GET', path: `${family.prefix}/${INTEGRITY_SEGMENT}`, operationId: `getIntegrity${family.name === 'V' ? '' : 'ByProject'}`,
  tag: INTEGRITY_TAG.name, access: 'read', params: FAMILY_PARAMS[family.name]!,
  summary: 'Report dangling references',
  description: 'Per collection: reference fields (`serviceId`, `pathId`, `operationId`, ...) naming no record of the version, and `$ref`s `#/components/schemas/<name>` or `#/components/headers/<name>` naming no Resource or Header. At most 1,000 per collection, with `truncated`.',
  responses: [{ status: 200, description: 'The report.', schema: { $ref: `${SCHEMA_BASE}api/integrity.json` } }],
  errors: [400, 401, 403, 500, 503],
}));

export const VERSIONS_TAG: Tag = {
  name: 'Versions',
  description: 'Catalog versions of a project: branches and environments. A copy keeps record ids; a deleted version is unreachable like an unknown one (403).',
};

const projectParams: Readonly<Record<string, Schema>> = { projectRef: { $ref: `${IDS}projectRef` } };
const versionResponse = (status: number, description: string) => ({ status, description, schema: { $ref: VERSION } });
const common = { tag: VERSIONS_TAG.name } as const;

export const versionRouteDocs: readonly DocumentedRoute[] = [
  {
    ...common, method: 'GET', path: `${PROJECT}/versions`, operationId: 'listVersions', access: 'read', params: projectParams,
    summary: "List a project's versions",
    description: 'Keyset pagination in id (creation) order; versions being copied are not listed.',
    query: [
      { name: 'cursor', description: 'Continue from this version id: the `nextCursor` of the previous page.', schema: { $ref: `${IDS}versionId` } },
      { name: 'limit', description: `Page size, 1 to ${MAX_LIMIT}; default ${DEFAULT_LIMIT}.`, schema: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT } },
      { name: 'type', description: 'Only versions of this type.', schema: { $ref: `${IDS}versionType` } },
    ],
    responses: [{ status: 200, description: 'One page of versions.', schema: { $ref: `${VERSION}#/$defs/versionList` } }],
    errors: [400, 401, 403, 500, 503],
  },
  {
    ...common, method: 'POST', path: `${PROJECT}/versions`, operationId: 'createVersion', access: 'write', params: projectParams,
    summary: 'Create a version, empty or as a copy of another',
    description: '`copyFrom` (a version of the same project) copies every record of every collection, keeping record ids; the new version is invisible until the copy is complete, and a failed copy leaves nothing behind.',
    body: { schema: { $ref: `${VERSION}#/$defs/versionCreate` }, example: { type: 'branch', slug: 'feature-x' } },
    responses: [versionResponse(201, 'The version; `Location` names it.')],
    errors: [400, 401, 403, 409, 413, 415, 500, 503],
  },
  ...([['ById', BY_ID, FAMILY_PARAMS['V']!], ['ByAddress', BY_ADDRESS, FAMILY_PARAMS['P']!]] as const).flatMap(([suffix, path, params]): DocumentedRoute[] => [
    {
      ...common, method: 'GET', path, operationId: `getVersion${suffix}`, access: 'read', params,
      summary: 'Get a version',
      responses: [versionResponse(200, 'The version.')],
      errors: [400, 401, 403, 500, 503],
    },
    {
      ...common, method: 'DELETE', path, operationId: `deleteVersion${suffix}`, access: 'write', params,
      summary: 'Delete a version and its records',
      description: 'Answers once the records are removed; records written by requests that raced the delete are removed too.',
      responses: [{ status: 204, description: 'The version and its records are gone; no body.' }],
      errors: [400, 401, 403, 500, 503],
    },
  ]),
  {
    ...common, method: 'GET', path: `${BY_ID}/diff`, operationId: 'diffVersions', access: 'read', params: FAMILY_PARAMS['V']!,
    summary: 'Compare two versions',
    description: 'Per collection, the ids added, removed and changed (any field but `updatedAt`) from `against` to this version; each list is capped at 1,000 ids with `truncated: true`. Both versions must be reachable by the credential.',
    query: [{ name: 'against', description: 'The version to compare with.', schema: { $ref: `${IDS}versionId` }, required: true }],
    responses: [{ status: 200, description: 'The differences.', schema: { $ref: `${VERSION}#/$defs/versionDiff` } }],
    errors: [400, 401, 403, 500, 503],
  },
];
