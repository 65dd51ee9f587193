// How an operation reads to a person: each alternative security requirement resolved to where
// the credential goes and how to get one, the servers with their variables, request samples
// made by httpsnippet (curl, fetch, requests) with the credential as a placeholder, and schemas
// flattened into rows a table can show.
import { HTTPSnippet, type HarRequest } from '@readme/httpsnippet';
import { isObject } from '../json/values.ts';
import type { VersionView } from '../search/endpoints.ts';

interface Scheme {
  id?: string | null;
  name?: string;
  type?: string;
  scheme?: string;
  in?: string;
  parameterName?: string;
  flows?: unknown;
  openIdConnectUrl?: string;
}

type Requirement = Array<{ scheme: Scheme; scopes: string[] }>;

/** One scheme of a requirement as a person needs it. */
export interface CredentialPlace {
  name: string;
  kind: string;
  /** Where it goes: "header X-Api-Key", "query parameter key", "cookie sid", "header Authorization: Bearer …". */
  where: string;
  scopes: string[];
  /** The scheme's description (Markdown) and the URLs to get one (OAuth, OpenID Connect). */
  description: string;
  urls: Array<{ label: string; url: string }>;
}

/** A short label for search hits: each alternative's schemes joined, or "none". */
export function securityLabel(security: unknown[] | undefined): string {
  const alternatives = (security ?? []) as Requirement[];
  if (alternatives.length === 0) return 'none';
  return alternatives.map((alternative) => alternative.map(({ scheme }) => placeOf(scheme).where).join(' + ') || 'none').join(' or ');
}

/** Every alternative requirement, each scheme resolved (its record read from the view for its description). */
export function howToCall(view: VersionView, security: unknown[]): CredentialPlace[][] {
  return (security as Requirement[]).map((alternative) => alternative.map(({ scheme, scopes }) => {
    const record = view.byId('security-schemes', scheme.id);
    return { ...placeOf(scheme), name: String(scheme.name ?? scheme.id), scopes, description: String(record?.['description'] ?? ''), urls: urlsOf(scheme) };
  }));
}

function placeOf(scheme: Scheme): { kind: string; where: string } {
  const type = scheme.type ?? 'unknown';
  if (type === 'apiKey') return { kind: 'API key', where: `${scheme.in === 'query' ? 'query parameter' : scheme.in ?? 'header'} ${scheme.parameterName ?? scheme.name ?? ''}`.trim() };
  if (type === 'http' && (scheme.scheme ?? '').toLowerCase() === 'basic') return { kind: 'HTTP Basic', where: 'header Authorization: Basic …' };
  if (type === 'http') return { kind: `HTTP ${scheme.scheme ?? ''}`.trim(), where: `header Authorization: ${capitalized(scheme.scheme ?? 'Bearer')} …` };
  if (type === 'oauth2') return { kind: 'OAuth 2.0', where: 'header Authorization: Bearer …' };
  if (type === 'openIdConnect') return { kind: 'OpenID Connect', where: 'header Authorization: Bearer …' };
  if (type === 'mutualTLS') return { kind: 'mutual TLS', where: 'client certificate' };
  return { kind: type, where: scheme.name ?? type };
}

function urlsOf(scheme: Scheme): Array<{ label: string; url: string }> {
  const urls: Array<{ label: string; url: string }> = [];
  if (typeof scheme.openIdConnectUrl === 'string') urls.push({ label: 'OpenID Connect discovery', url: scheme.openIdConnectUrl });
  if (isObject(scheme.flows)) {
    for (const [flow, value] of Object.entries(scheme.flows)) {
      if (!isObject(value)) continue;
      for (const field of ['authorizationUrl', 'tokenUrl', 'refreshUrl'] as const) {
        if (typeof value[field] === 'string') urls.push({ label: `${flow} ${field}`, url: value[field] });
      }
    }
  }
  return urls;
}

/** The servers, each URL with its variables (default, allowed values) from the version's server records. */
export function serversOf(view: VersionView, urls: readonly string[]): Array<{ url: string; variables: Array<{ name: string; default: string; values: string }> }> {
  return urls.map((url) => {
    const record = view.of('servers').find((server) => server['url'] === url);
    const variables = isObject(record?.['variables']) ? record['variables'] : {};
    return {
      url,
      variables: Object.entries(variables).map(([name, variable]) => ({
        name, default: String(isObject(variable) ? variable['default'] ?? '' : ''),
        values: isObject(variable) && Array.isArray(variable['enum']) ? variable['enum'].join(', ') : '',
      })),
    };
  });
}

/** The first server's URL with its variables at their defaults; a relative or missing one on a placeholder host. */
export function baseUrl(servers: ReturnType<typeof serversOf>): string {
  const first = servers[0];
  let url = first?.url ?? '';
  for (const variable of first?.variables ?? []) url = url.replaceAll(`{${variable.name}}`, variable.default);
  if (!/^https?:\/\//i.test(url)) url = `https://api.example.com${url.startsWith('/') ? '' : '/'}${url}`;
  return url.replace(/\/$/, '');
}

export interface SampleInput {
  method: string;
  url: string;
  parameters: ReadonlyArray<Record<string, unknown>>;
  /** The first alternative's schemes: the credential the samples carry, as placeholders. */
  scheme: ReadonlyArray<{ scheme: Scheme }>;
  body: { mediaType: string; example: unknown } | undefined;
}

/** curl, JavaScript fetch and Python requests samples of one call. */
export function samplesOf(input: SampleInput): Array<{ label: string; code: string }> {
  const har: HarRequest = {
    method: input.method.toUpperCase(), url: input.url, httpVersion: 'HTTP/1.1', headersSize: -1, bodySize: -1,
    headers: [], queryString: [], cookies: [], postData: { mimeType: '' },
  };
  for (const parameter of input.parameters) {
    if (parameter['required'] !== true) continue;
    const name = String(parameter['name']);
    // A placeholder that survives URL encoding unchanged, like the credential's.
    const value = `YOUR_${name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`;
    if (parameter['in'] === 'query') har.queryString.push({ name, value });
    if (parameter['in'] === 'header') har.headers.push({ name, value });
  }
  for (const { scheme } of input.scheme) {
    if (scheme.type === 'apiKey') {
      const name = scheme.parameterName ?? scheme.name ?? 'api_key';
      const target = scheme.in === 'query' ? har.queryString : scheme.in === 'cookie' ? har.cookies : har.headers;
      target.push({ name, value: 'YOUR_API_KEY' });
    } else if (scheme.type === 'http' && (scheme.scheme ?? '').toLowerCase() === 'basic') {
      har.headers.push({ name: 'Authorization', value: 'Basic BASE64_USER_COLON_PASSWORD' });
    } else if (scheme.type === 'http' || scheme.type === 'oauth2' || scheme.type === 'openIdConnect') {
      har.headers.push({ name: 'Authorization', value: `${capitalized(scheme.type === 'http' ? scheme.scheme ?? 'Bearer' : 'Bearer')} YOUR_TOKEN` });
    }
  }
  if (input.body) {
    har.headers.push({ name: 'Content-Type', value: input.body.mediaType });
    har.postData = { mimeType: input.body.mediaType, text: typeof input.body.example === 'string' ? input.body.example : JSON.stringify(input.body.example ?? {}, null, 2) };
  }
  const snippet = new HTTPSnippet(har);
  const made = (target: string, client: string) => {
    const code = snippet.convert(target as never, client);
    return Array.isArray(code) ? code.join('\n') : String(code);
  };
  return [
    { label: 'curl', code: made('shell', 'curl') },
    { label: 'JavaScript (fetch)', code: made('javascript', 'fetch') },
    { label: 'Python (requests)', code: made('python', 'requests') },
  ];
}

/** A schema as rows (name, type, required, description), nested properties indented; named schemas linked, not expanded. */
export function schemaRows(schema: unknown, depth = 0, name = '', required = false): Array<{ depth: number; name: string; type: string; required: boolean; description: string; ref?: string }> {
  if (!isObject(schema) || depth > 5) return [];
  const ref = typeof schema['$ref'] === 'string' ? schema['$ref'].split('/').at(-1) : undefined;
  const row = { depth, name, type: typeOf(schema), required, description: typeof schema['description'] === 'string' ? schema['description'] : '', ...(ref && { ref: decodeURIComponent(ref) }) };
  if (ref) return [row];
  const rows = depth === 0 && name === '' ? [] : [row];
  const requiredNames = new Set(Array.isArray(schema['required']) ? schema['required'].map(String) : []);
  if (isObject(schema['properties'])) {
    for (const [property, value] of Object.entries(schema['properties'])) rows.push(...schemaRows(value, depth + 1, property, requiredNames.has(property)));
  }
  if (isObject(schema['items'])) rows.push(...schemaRows(schema['items'], depth + 1, '[items]'));
  for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
    if (Array.isArray(schema[key])) schema[key].forEach((part, index) => rows.push(...schemaRows(part, depth + 1, `${key}[${index}]`)));
  }
  if (rows.length === 0 && depth === 0) rows.push(row);
  return rows;
}

function typeOf(schema: Record<string, unknown>): string {
  if (typeof schema['$ref'] === 'string') return decodeURIComponent(schema['$ref'].split('/').at(-1) ?? 'object');
  const type = Array.isArray(schema['type']) ? schema['type'].join(' | ') : typeof schema['type'] === 'string' ? schema['type'] : schema['properties'] ? 'object' : '';
  const format = typeof schema['format'] === 'string' ? ` (${schema['format']})` : '';
  const items = isObject(schema['items']) ? ` of ${typeOf(schema['items'])}` : '';
  const values = Array.isArray(schema['enum']) ? `: ${schema['enum'].map((value) => JSON.stringify(value)).join(', ')}` : '';
  return `${type}${items}${format}${values}` || 'any';
}

function capitalized(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
}
