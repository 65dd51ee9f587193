// What a hit carries to make the call without a second look-up: the ready URL template, the
// required parameters and the request body's media types, from the records of the search view.
import type { CatalogRecord } from '../store/records.ts';
import { isObject } from '../json/values.ts';
import { parametersOf } from '../views/operation-records.ts';

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

/**
 * The parameters that a call must send: path parameters always, the others when marked
 * required. `type` is the schema's own type (the first that is not null), absent when the
 * schema gives none directly (a `$ref`, a `oneOf`).
 */
export function requiredParameters(own: readonly CatalogRecord[], ofPath: readonly CatalogRecord[]): RequiredParameter[] {
  return parametersOf(own, ofPath)
    .filter((record) => record['in'] === 'path' || record['required'] === true)
    .map((record) => {
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
