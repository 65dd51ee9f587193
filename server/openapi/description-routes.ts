// The API-description routes (server/descriptions/routes.ts) as documented routes: import an
// OpenAPI document into a service, and export a service as OpenAPI 3.1, on both families.
import { EXPORT_SEGMENT, IMPORT_SEGMENT } from '../descriptions/routes.ts';
import { RecordNotFound } from '../errors.ts';
import { FAMILIES } from '../routes/table.ts';
import { SCHEMA_BASE } from '../schemas/registry.ts';
import { FAMILY_PARAMS } from './collection-routes.ts';
import type { DocumentedRoute, Schema, Tag } from './documented-route.ts';

export const DESCRIPTIONS_TAG: Tag = {
  name: 'API descriptions',
  description: 'OpenAPI documents in and out: an import syncs a service\'s records by their natural keys; an export assembles OpenAPI 3.1 from them.',
};

const counts: Schema = {
  type: 'object',
  additionalProperties: false,
  required: ['created', 'updated', 'deleted', 'unchanged'],
  properties: Object.fromEntries(['created', 'updated', 'deleted', 'unchanged'].map((name) => [name, { type: 'integer', minimum: 0 }])),
};

const importReport: Schema = {
  type: 'object',
  additionalProperties: false,
  required: ['service', 'dryRun', 'records', 'warnings'],
  properties: {
    service: { type: 'object', required: ['id', 'slug'], properties: { id: { $ref: `${SCHEMA_BASE}defs/ids.json#/$defs/serviceId` }, slug: { type: 'string' } } },
    dryRun: { type: 'boolean' },
    records: { type: 'object', description: 'Records created, updated, deleted and unchanged, per collection (named `changes` before the changes report took that name).', additionalProperties: counts },
    changes: { $ref: `${SCHEMA_BASE}api/changes.json`, description: 'With `dryRun=true` or `failOn`: what the import changes for clients of the service as the catalog holds it now.' },
    warnings: {
      type: 'array',
      description: 'What the records could not carry, by JSON pointer into the document.',
      items: { type: 'object', required: ['pointer', 'message'], properties: { pointer: { type: 'string' }, message: { type: 'string' } } },
    },
  },
};

const openApiDocument: Schema = { type: 'object', description: 'An OpenAPI 3.1 document.', required: ['openapi', 'info'] };

/** What the import takes, to its top level; everything below is checked by the OpenAPI schema of the document's version. */
const EXTENSIONS = { '^x-': {} };
const text: Schema = { type: 'string' };
const info: Schema = {
  type: 'object', additionalProperties: false, patternProperties: EXTENSIONS, required: ['title'],
  properties: { title: text, version: { type: 'string', description: 'Required by the specification; a document without it is taken all the same.' }, description: text },
};
const paths: Schema = { type: 'object', description: 'Path Items by path (each starting with `/`).', propertyNames: { pattern: '^/' }, additionalProperties: { type: 'object' } };
const object: Schema = { type: 'object' };
const named = (required: string, more: Record<string, Schema> = {}): Schema => ({
  type: 'object', additionalProperties: false, patternProperties: EXTENSIONS, required: [required], properties: { [required]: text, description: text, ...more },
});
const tags: Schema = { type: 'array', items: named('name') };
const servers: Schema = { type: 'array', items: named('url') };
const security: Schema = { type: 'array', items: { type: 'object', additionalProperties: { type: 'array', items: text } } };
const importedDocument: Schema = {
  description: 'An OpenAPI 3.1 or 3.0, or Swagger 2.0, document: its top level as below, and everything in it valid by the OpenAPI schema of its version (@scalar/openapi-parser), else 400 with the validator\'s findings.',
  oneOf: [
    {
      title: 'OpenAPI 3.1', type: 'object', additionalProperties: false, patternProperties: EXTENSIONS,
      required: ['openapi', 'info'], anyOf: [{ required: ['paths'] }, { required: ['components'] }, { required: ['webhooks'] }],
      properties: { openapi: { type: 'string', pattern: '^3\\.1\\.\\d+(-.+)?$' }, info, paths, webhooks: object, components: object, servers, security, tags },
    },
    {
      title: 'OpenAPI 3.0', type: 'object', additionalProperties: false, patternProperties: EXTENSIONS, required: ['openapi', 'info', 'paths'],
      properties: { openapi: { type: 'string', pattern: '^3\\.0\\.\\d(-.+)?$' }, info, paths, components: object, servers, security, tags },
    },
    {
      title: 'Swagger 2.0', type: 'object', additionalProperties: false, patternProperties: EXTENSIONS, required: ['swagger', 'info', 'paths'],
      properties: { swagger: { const: '2.0' }, info, paths, definitions: object, parameters: object, responses: object, securityDefinitions: object, security, tags },
    },
  ],
};

export const descriptionRouteDocs: readonly DocumentedRoute[] = FAMILIES.flatMap((family): DocumentedRoute[] => {
  const suffix = family.name === 'V' ? '' : 'ByProject';
  const params = FAMILY_PARAMS[family.name]!;
  return [
    {
      method: 'POST', path: `${family.prefix}${IMPORT_SEGMENT}`, operationId: `importOpenApi${suffix}`, tag: DESCRIPTIONS_TAG.name,
      access: 'write', params,
      summary: 'Import an OpenAPI document into a service',
      description: 'OpenAPI 3.0 or 3.1 (Swagger 2.0 is upgraded), JSON or YAML, up to `IMPORT_BODY_LIMIT`. Re-importing syncs by natural keys: unchanged records are not written, changed ones are updated, records the document no longer has are deleted. An invalid document is 400 with the validator\'s findings and writes nothing.',
      query: [
        { name: 'service', description: 'The service slug; default: from `info.title`.', schema: { $ref: `${SCHEMA_BASE}defs/ids.json#/$defs/serviceSlug` } },
        { name: 'dryRun', description: '`true`: answer the plan, write nothing; the answer has `changes`, what the import would change for clients.', schema: { type: 'string', enum: ['true', 'false'] } },
        { name: 'failOn', description: '`breaking`: refuse (409, nothing written) an import that would break clients of the service; `details` name each breaking change (`field`: JSON pointer of the operation in the document, `message`: rule and sentence).', schema: { type: 'string', enum: ['breaking'] } },
      ],
      body: {
        schema: importedDocument,
        mediaTypes: ['application/json', 'application/yaml'],
        example: { openapi: '3.1.0', info: { title: 'Petstore', version: '1.0.0' }, paths: { '/pets': { get: { operationId: 'listPets', responses: { 200: { description: 'The pets.' } } } } } },
      },
      responses: [
        { status: 200, description: 'The service existed (or a dry run): what changed, or would.', schema: importReport },
        { status: 201, description: 'The service was created.', schema: importReport },
      ],
      errors: [400, 401, 403, 409, 413, 415, 500, 503],
    },
    {
      method: 'GET', path: `${family.prefix}${EXPORT_SEGMENT}`, operationId: `exportOpenApi${suffix}`, tag: DESCRIPTIONS_TAG.name,
      access: 'read', params: { ...params, id: { $ref: `${SCHEMA_BASE}defs/ids.json#/$defs/serviceId` } },
      summary: 'Export a service as OpenAPI 3.1',
      description: 'JSON, or YAML with `Accept: application/yaml`. `components.schemas` holds the Resources its schemas reference.',
      responses: [{ status: 200, description: 'The OpenAPI document.', schema: openApiDocument }],
      errors: [400, 401, 403, new RecordNotFound('Service not found'), 500, 503],
    },
  ];
});
