// The OpenAPI 3.1 document of the service, generated from schemas/ and a list of documented
// routes. Built once at start-up (and by `npm run openapi`); requests only read the result.
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../config.ts';
import { DOCUMENTED_OUTCOMES, type ApiError } from '../errors.ts';
import { SCHEMA_BASE, type SchemaRegistry } from '../schemas/registry.ts';
import { schemaComponents, type SchemaComponents } from './components.ts';
import type { DocumentedRoute, Schema, Tag } from '../routes/documentation.ts';

const ERROR_SCHEMA = `${SCHEMA_BASE}api/error.json`;

/** Headers of error answers, where more can be said than "sent with every <status>". */
const ERROR_HEADERS: Readonly<Record<string, { description: string; schema: Schema }>> = {
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 1 } },
};

const BEARER_SCHEMES = {
  projectApiKey: {
    type: 'http',
    scheme: 'bearer',
    description: 'A project API key (`catk_` + 43 characters), made with the admin CLI: belongs to one project, read-write or read-only, revocable.',
  },
  personalAccessToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'A personal access token: a JWT signed with HS256, with claims `sub`, `exp`, `aud` = `catalog-api`, `projects` (ids, or `["*"]`) and `scope` (`catalog:read` and/or `catalog:write`).',
  },
} as const;

const ACCESS_NOTES: Readonly<Record<DocumentedRoute['access'], string>> = {
  none: 'No credentials needed.',
  read: 'Needs read access to the project: any of its API keys, or a token with `catalog:read` or `catalog:write`.',
  write: 'Needs write access to the project: a read-write API key, or a token with `catalog:write`.',
};

export interface DocumentInput {
  routes: readonly DocumentedRoute[];
  tags: readonly Tag[];
  /** Schemas the routes name as `#/components/schemas/<name>` beside those of schemas/ (request bodies). */
  schemas?: Readonly<Record<string, Schema>>;
}

export type OpenApiDocument = Readonly<Record<string, unknown>> & { paths: Record<string, Record<string, Record<string, unknown>>> };

export function openApiDocument(schemas: SchemaRegistry, input: DocumentInput): OpenApiDocument {
  const components = schemaComponents(schemas);
  const paths: Record<string, Record<string, Record<string, unknown>>> = {};
  const operationIds = new Set<string>();
  for (const route of input.routes) {
    if (operationIds.has(route.operationId)) throw new Error(`operationId ${route.operationId} is used twice`);
    operationIds.add(route.operationId);
    const item = (paths[openApiPath(route.path)] ??= {});
    const method = route.method.toLowerCase();
    if (item[method]) throw new Error(`${route.method} ${route.path} is documented twice`);
    item[method] = operationOf(route, components);
  }
  const errorSchema = { $ref: components.refOf(ERROR_SCHEMA) };
  return {
    openapi: '3.1.1',
    info: {
      title: 'Catalog Service',
      version: packageVersion(),
      summary: 'A catalog of API definitions, organised per project into catalog versions.',
      description: 'Services, their paths, operations, request bodies and security posture, per project and catalog version (branches and environments). Every collection is served on two route families: by version id (`/v2/catalog/versions/{versionId}/…`) and by project, version type and slug (`/v2/catalog/projects/{projectRef}/{versionType}/{versionSlug}/…`). This document is generated from the service\'s schemas and route table.',
    },
    tags: input.tags.map((tag) => ({ ...tag })),
    paths,
    components: {
      schemas: withSchemas(components, input.schemas ?? {}),
      responses: Object.fromEntries([...DOCUMENTED_OUTCOMES].sort(([a], [b]) => a - b)
        .map(([, outcome]) => [outcome.name, errorResponse(outcome.description, outcome.example(), errorSchema)])),
      securitySchemes: BEARER_SCHEMES,
    },
  };
}

function operationOf(route: DocumentedRoute, components: SchemaComponents): Record<string, unknown> {
  const names = [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1]!);
  const parameters = [
    ...names.map((name) => {
      const schema = route.params?.[name];
      if (!schema) throw new Error(`${route.method} ${route.path}: no schema for path parameter ${name}`);
      return { name, in: 'path', required: true, ...described(components.rewrite(schema), components) };
    }),
    ...(route.query ?? []).map((query) => ({
      name: query.name, in: 'query', required: query.required ?? false, description: query.description, schema: components.rewrite(query.schema),
    })),
  ];
  const responses: Record<string, unknown> = {};
  for (const success of route.responses) {
    responses[String(success.status)] = success.schema === undefined
      ? { description: success.description }
      : { description: success.description, content: { [success.mediaType ?? 'application/json']: withExample({ schema: components.rewrite(success.schema) }, success.example) } };
  }
  const errorSchema = { $ref: components.refOf(ERROR_SCHEMA) };
  for (const error of [...route.errors].sort((a, b) => statusOf(a) - statusOf(b))) {
    const status = statusOf(error);
    if (responses[String(status)]) throw new Error(`${route.operationId}: ${status} is documented twice`);
    const usual = DOCUMENTED_OUTCOMES.get(status);
    if (typeof error === 'number') {
      if (!usual) throw new Error(`${route.operationId}: no documented error outcome for ${status}; document its class in server/errors.ts or pass an ApiError`);
      responses[String(status)] = { $ref: `#/components/responses/${usual.name}` };
    } else {
      responses[String(status)] = errorResponse(usual?.description ?? error.error, error, errorSchema);
    }
  }
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: [route.description, ACCESS_NOTES[route.access]].filter(Boolean).join('\n\n'),
    tags: [route.tag],
    security: route.access === 'none' ? [] : Object.keys(BEARER_SCHEMES).map((scheme) => ({ [scheme]: [] })),
    ...(parameters.length > 0 && { parameters }),
    ...(route.body && {
      requestBody: {
        required: true,
        content: {
          ...Object.fromEntries((route.body.mediaTypes ?? ['application/json']).map((type) => [type, withExample({ schema: components.rewrite(route.body!.schema) }, route.body!.example)])),
          ...Object.fromEntries(Object.entries(route.body.otherMediaTypes ?? {}).map(([type, schema]) => [type, { schema: components.rewrite(schema) }])),
        },
      },
    }),
    responses,
  };
}

function statusOf(error: number | ApiError): number {
  return typeof error === 'number' ? error : error.status;
}

function withSchemas(components: SchemaComponents, more: Readonly<Record<string, Schema>>): Record<string, Schema> {
  const taken = Object.keys(more).filter((name) => name in components.schemas);
  if (taken.length > 0) throw new Error(`OpenAPI component names ${taken.join(', ')} are taken by schemas/`);
  const rewritten = Object.entries(more).map(([name, schema]) => [name, components.rewrite(schema)] as const);
  return Object.fromEntries([...Object.entries(components.schemas), ...rewritten].sort(([a], [b]) => a.localeCompare(b)));
}

function errorResponse(description: string, example: ApiError, schema: Schema): Record<string, unknown> {
  const headers = Object.fromEntries(Object.keys(example.headers).map((name) => [name, ERROR_HEADERS[name] ?? { description: `Sent with every ${example.status}.`, schema: { type: 'string' } }]));
  return {
    description,
    ...(Object.keys(headers).length > 0 && { headers }),
    content: { 'application/json': { schema, example: example.body() } },
  };
}

/** A parameter's schema, with the description of the schema (or of what it refers to) lifted to the parameter. */
function described(schema: Schema, components: SchemaComponents): Record<string, unknown> {
  let target: unknown = schema;
  for (let hops = 0; hops < 8 && typeof (target as Schema)['$ref'] === 'string' && (target as Schema)['description'] === undefined; hops++) {
    const pointer = ((target as Schema)['$ref'] as string).replace('#/components/schemas/', '').split('/');
    target = pointer.reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], components.schemas);
  }
  const description = (target as Schema | undefined)?.['description'];
  return typeof description === 'string' ? { description, schema } : { schema };
}

function withExample(media: Record<string, unknown>, example: unknown): Record<string, unknown> {
  return example === undefined ? media : { ...media, example };
}

/** Express `:name` → OpenAPI `{name}`. */
export function openApiPath(expressPath: string): string {
  return expressPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function packageVersion(): string {
  return (JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
}
