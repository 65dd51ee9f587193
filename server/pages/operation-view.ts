// How an operation reads to a person: each alternative security requirement resolved to where
// the credential goes and how to get one, the servers with their variables, and schemas
// flattened into rows a table can show (the request samples are samples.ts's).
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

/** What the description says of a call's credentials, where it says that none is needed or says nothing. */
export const NO_CREDENTIAL = {
  declared: 'No credential needed: the description says so (security: []).',
  undeclared: 'The description declares no authentication: it does not say whether a call needs a credential.',
} as const;

/** A short label for search hits: each alternative's schemes joined, "none needed" where declared so, "not declared" where the description is silent. */
export function securityLabel(security: unknown[] | undefined, declared: boolean): string {
  const alternatives = (security ?? []) as Requirement[];
  if (alternatives.length === 0) return declared ? 'none needed' : 'not declared';
  return alternatives.map((alternative) => alternative.map(({ scheme }) => placeOf(scheme).where).join(' + ') || 'none needed').join(' or ');
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

export type SchemaRow = ReturnType<typeof schemaRows>[number];
export interface SchemaNode extends SchemaRow { children: SchemaNode[] }

/** The rows as a tree for the page's nested <details>: a row's children are the rows after it one level deeper, up to the next at its level. */
export function schemaTree(rows: readonly SchemaRow[]): SchemaNode[] {
  const roots: SchemaNode[] = [];
  const open: SchemaNode[] = [];
  for (const row of rows) {
    const node: SchemaNode = { ...row, children: [] };
    while (open.length > 0 && open.at(-1)!.depth >= row.depth) open.pop();
    (open.at(-1)?.children ?? roots).push(node);
    open.push(node);
  }
  return roots;
}

/** Levels of an inline schema a page shows; what lies deeper is marked as cut, and is in the export. */
export const SCHEMA_DEPTH_SHOWN = 5;

/**
 * A schema as rows (name, type, required, description), nested properties indented; named
 * schemas linked, not expanded. A row at the last level shown whose schema goes deeper says how
 * many members it holds (`cut`), so the page can say the tree is cut there.
 */
export function schemaRows(schema: unknown, depth = 0, name = '', required = false): Array<{ depth: number; name: string; type: string; required: boolean; description: string; ref?: string; cut?: number }> {
  if (!isObject(schema) || depth > SCHEMA_DEPTH_SHOWN) return [];
  const ref = typeof schema['$ref'] === 'string' ? schema['$ref'].split('/').at(-1) : undefined;
  const cut = depth === SCHEMA_DEPTH_SHOWN && !ref ? membersOf(schema) : 0;
  const row = { depth, name, type: typeOf(schema), required, description: typeof schema['description'] === 'string' ? schema['description'] : '', ...(ref && { ref: decodeURIComponent(ref) }), ...(cut > 0 && { cut }) };
  if (ref || cut > 0) return [row];
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

/** The members a schema nests (properties, items, the parts of allOf, oneOf and anyOf). */
function membersOf(schema: Record<string, unknown>): number {
  const parts = (['allOf', 'oneOf', 'anyOf'] as const).reduce((sum, key) => sum + (Array.isArray(schema[key]) ? schema[key].length : 0), 0);
  return (isObject(schema['properties']) ? Object.keys(schema['properties']).length : 0) + (isObject(schema['items']) ? 1 : 0) + parts;
}

function typeOf(schema: Record<string, unknown>): string {
  if (typeof schema['$ref'] === 'string') return decodeURIComponent(schema['$ref'].split('/').at(-1) ?? 'object');
  const type = Array.isArray(schema['type']) ? schema['type'].join(' | ') : typeof schema['type'] === 'string' ? schema['type'] : schema['properties'] ? 'object' : '';
  const format = typeof schema['format'] === 'string' ? ` (${schema['format']})` : '';
  const items = isObject(schema['items']) ? ` of ${typeOf(schema['items'])}` : '';
  const values = Array.isArray(schema['enum']) ? `: ${schema['enum'].map((value) => JSON.stringify(value)).join(', ')}` : '';
  const bounds = constraintsOf(schema);
  return [`${type}${items}${format}${values}` || 'any', ...bounds].join(', ');
}

/** A schema's bounds and default as a reader says them: `≥ 1`, `≤ 100`, `length ≤ 64`, `default 25`. */
function constraintsOf(schema: Record<string, unknown>): string[] {
  const said: string[] = [];
  const number = (key: string) => (typeof schema[key] === 'number' ? schema[key] : undefined);
  // OpenAPI 3.0 marks a bound exclusive with a boolean beside it, 3.1 gives the exclusive bound itself.
  const bound = (key: 'minimum' | 'maximum', exclusive: 'exclusiveMinimum' | 'exclusiveMaximum', inclusiveSign: string, exclusiveSign: string) => {
    if (number(exclusive) !== undefined) said.push(`${exclusiveSign} ${number(exclusive)}`);
    else if (number(key) !== undefined) said.push(`${schema[exclusive] === true ? exclusiveSign : inclusiveSign} ${number(key)}`);
  };
  bound('minimum', 'exclusiveMinimum', '≥', '>');
  bound('maximum', 'exclusiveMaximum', '≤', '<');
  for (const [key, words] of [['minLength', 'length ≥'], ['maxLength', 'length ≤'], ['minItems', 'items ≥'], ['maxItems', 'items ≤']] as const) {
    if (number(key) !== undefined) said.push(`${words} ${number(key)}`);
  }
  if (typeof schema['pattern'] === 'string') said.push(`pattern ${schema['pattern']}`);
  if (schema['default'] !== undefined) said.push(`default ${JSON.stringify(schema['default'])}`);
  return said;
}

function capitalized(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
}
