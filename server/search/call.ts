// What a hit carries to make the call without a second look-up: the ready URL template, the
// required parameters and the request body's media types.
import type { CatalogRecord } from '../store/records.ts';
import { isObject } from '../json/values.ts';

export interface RequiredParameter { name: string; in: string; type?: string }

/**
 * The first server's URL with each `{variable}` replaced by its default, joined with the path
 * (its own `{parameters}` kept for the caller to fill); the path alone when no server applies.
 */
export function urlTemplate(server: CatalogRecord | undefined, path: string): string {
  if (!server) return path;
  const variables = isObject(server['variables']) ? server['variables'] : {};
  const url = String(server['url']).replace(/\{([^}]+)\}/g, (placeholder, name: string) => {
    const variable = variables[name];
    return isObject(variable) && typeof variable['default'] === 'string' ? variable['default'] : placeholder;
  });
  return `${url.replace(/\/+$/, '')}${path.startsWith('/') ? path : `/${path}`}`;
}

/** Whether a call must send the parameter: a path parameter always, another when marked required. */
export function mustSend(record: CatalogRecord): boolean {
  return record['in'] === 'path' || record['required'] === true;
}

/**
 * The parameters that a call must send, of an operation's (parametersOf: its path's it does not
 * override, then its own). `type` is the schema's own type (the first that is not null), absent
 * when the schema gives none directly (a `$ref`, a `oneOf`).
 */
export function requiredParameters(parameters: readonly CatalogRecord[]): RequiredParameter[] {
  return parameters.filter(mustSend).map((record) => {
    const type = typeOf(record['schema']);
    return { name: String(record['name']), in: String(record['in']), ...(type === undefined ? {} : { type }) };
  });
}

/** The distinct media types of the operation's request bodies, in document order (a null type is no body). */
export function bodyMediaTypes(requests: readonly CatalogRecord[]): string[] {
  return [...new Set(requests.map((record) => record['contentMediaType']).filter((type): type is string => typeof type === 'string'))];
}

function typeOf(schema: unknown): string | undefined {
  if (!isObject(schema)) return undefined;
  const type = schema['type'];
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.find((each): each is string => typeof each === 'string' && each !== 'null');
  return undefined;
}
