// What a route says of itself for the document, in terms of schemas/ and the error classes: an
// Endpoint carries it beside its run function (RouteDoc); routes mounted outside the pipeline
// (health, metrics, self-description, MCP) declare a DocumentedRoute where they are mounted.
import { SERVICE_REF_INVALID, type ApiError } from '../errors.ts';
import { SCHEMA_BASE } from '../schemas/registry.ts';

/**
 * A JSON Schema (2020-12). `$ref`s name schemas of `schemas/` by their absolute `$id`
 * (`https://catalog.example/schemas/records/path.json`, with `#/$defs/...` or `#/properties/...`
 * fragments as needed); the generator rewrites them to `#/components/schemas/...`.
 */
export type Schema = Readonly<Record<string, unknown>>;

/**
 * A query parameter: the pipeline checks each value given against `schema` (text coerced to the
 * schema's type: `limit=5` a number, `dryRun=true` a boolean) and hands the work the typed value,
 * or the schema's default.
 */
export interface QueryParameter {
  name: string;
  description: string;
  schema: Schema;
  required?: boolean;
  /** What a value that fails the schema is told; default: the schema's own words. */
  invalid?: string;
  /** What a missing required parameter is told; default `is required`. */
  missing?: string;
  /**
   * Types the text itself instead of Ajv's coercion, then checks the value by the same schema
   * (a record filter, where the text `null` means null). A schema of `type: array` takes the
   * parameter repeated (`sort=a&sort=b`), as OpenAPI's default form style says.
   */
  fromText?: (text: string) => { value: unknown } | { problem: string };
}

export interface SuccessResponse {
  status: number;
  description: string;
  /** Absent: no body (204). */
  schema?: Schema;
  /** Default `application/json`. */
  mediaType?: string;
  example?: unknown;
}

export interface DocumentedRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The Express path, with `:name` parameters, exactly as mounted. */
  path: string;
  /** Unique across the document; camelCase. */
  operationId: string;
  summary: string;
  description?: string;
  /** The tag (group) of the operation; its description comes from `tags` of the generator input. */
  tag: string;
  /** `none`: no credentials; `read`/`write`: either bearer scheme with that access. */
  access: 'none' | 'read' | 'write';
  /** Schema of every `:name` in `path`, by name. */
  params?: Readonly<Record<string, Schema>>;
  query?: readonly QueryParameter[];
  /**
   * `mediaTypes` share `schema` and `example`; `otherMediaTypes` are bodies of another shape (an
   * archive), each with its own schema. On a route whose body is `json` the pipeline checks the
   * body by `schema`; `invalid` says, by JSON pointer, what a problem at that field is told
   * instead of the schema's own words.
   */
  body?: {
    schema: Schema; mediaTypes?: readonly string[]; example?: unknown; otherMediaTypes?: Readonly<Record<string, Schema>>;
    invalid?: Readonly<Record<string, string>>;
  };
  responses: readonly SuccessResponse[];
  /**
   * Error outcomes: a status of the status table (described with its usual `error` string), or
   * an ApiError instance when the body differs (e.g. `new RecordNotFound('Path not found')`).
   */
  errors: readonly (number | ApiError)[];
}

/** What an endpoint documents beside the method, path and access it already has. */
export type RouteDoc = Omit<DocumentedRoute, 'method' | 'path' | 'access'>;

export interface Tag {
  name: string;
  description: string;
}

export const SERVICE_TAG: Tag = { name: 'Service', description: 'Health and self-description; no credentials.' };

/** A route of the Service tag (self-description, health, metrics): GET, without credentials. */
export function serviceRoute(route: Pick<DocumentedRoute, 'path' | 'operationId' | 'summary' | 'description' | 'responses'> & Partial<Pick<DocumentedRoute, 'errors'>>): DocumentedRoute {
  return { method: 'GET', tag: SERVICE_TAG.name, access: 'none', errors: [], ...route };
}

/**
 * The `service` query parameter, the same on every route that takes one: a slug or a `svc_` id
 * (resolved by pipeline/stages.ts findService), its description saying what it does there.
 */
export function serviceParameter(description: string): QueryParameter {
  return { name: 'service', description, schema: { $ref: `${SCHEMA_BASE}defs/ids.json#/$defs/serviceRef` }, invalid: SERVICE_REF_INVALID };
}
