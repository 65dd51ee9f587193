// The changes route (server/changes/routes.ts) on both families as documented routes.
import { CHANGES_SEGMENT } from '../changes/routes.ts';
import { RecordNotFound } from '../errors.ts';
import { FAMILIES } from '../routes/table.ts';
import { SCHEMA_BASE } from '../schemas/registry.ts';
import { FAMILY_PARAMS } from './collection-routes.ts';
import type { DocumentedRoute, Tag } from './documented-route.ts';

export const CHANGES_TAG: Tag = {
  name: 'Changes',
  description: 'What a change breaks: the breaking and non-breaking changes a client of one version meets in another, per service, from each service\'s OpenAPI export on both sides. The import\'s dry run reports the same for a document, and `failOn=breaking` turns it into a gate.',
};

export const changeRouteDocs: readonly DocumentedRoute[] = FAMILIES.map((family): DocumentedRoute => ({
  method: 'GET', path: `${family.prefix}${CHANGES_SEGMENT}`, operationId: `listChanges${family.name === 'V' ? '' : 'ByProject'}`,
  tag: CHANGES_TAG.name, access: 'read', params: FAMILY_PARAMS[family.name]!,
  summary: 'What changes for clients between two versions',
  description: 'The changes that take a client of `against` to this version, per service (matched by slug): removed operations, new or newly required parameters, changed types and formats, removed response properties, removed success statuses or media types, enum values removed from a request or added to a response, security requirements added or changed, removed servers, and the additions a client can ignore. A change inside a shared schema shows under every operation that uses it. Computed on each call, never stored. The credential needs read access to both versions; `against` unknown or out of reach is 403.',
  query: [
    { name: 'against', description: 'The version clients use now (`ver_` id).', schema: { $ref: `${SCHEMA_BASE}defs/ids.json#/$defs/versionId` }, required: true },
    { name: 'service', description: 'Only this service (slug or id, on either side); 404 when neither version has it.', schema: { type: 'string', minLength: 1 } },
  ],
  responses: [{ status: 200, description: 'The changes, by service, path and method.', schema: { $ref: `${SCHEMA_BASE}api/changes.json` } }],
  errors: [400, 401, 403, new RecordNotFound('Service not found'), 500, 503],
}));
