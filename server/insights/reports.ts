// A report's body → the calls it saw: HAR 1.2, OTLP/HTTP JSON traces or NDJSON access-log lines,
// recognised by content type and shape, checked whole against schemas/reports/ before anything
// is counted (all or nothing). Only method, host, path, status and time are kept, and for the
// lifecycle insights the names of the parameters sent and whether the response carried
// Deprecation and Sunset headers (announced.ts): query values, header values, cookies and bodies
// carry credentials and are never read.
import { InvalidRequest, type FieldProblem } from '../errors.ts';
import { checkBody } from '../store/record-cost.ts';
import { SCHEMA_BASE, type SchemaRegistry } from '../schemas/registry.ts';
import { fromHarEntry, queryNames, type Announced, type Sent } from './announced.ts';

/** One observed call. */
export interface Call {
  method: string;
  /** `host[:port]`, lower case, without a default port; undefined when the report does not say. */
  host: string | undefined;
  /** The path alone, never the query. */
  path: string;
  status: number | undefined;
  time: Date | undefined;
  /** Whether it is counted: a client span is not (the callee's own server span counts the call). */
  counts: boolean;
  /** Whether a client reported it (HAR entry, client span): it mentions the service it reached. */
  client: boolean;
  /** Who made it, when the report says (an OTLP resource's service.name, an NDJSON line's `client`). */
  caller?: string;
  /** The parameters it sent, by name (announced.ts); absent where the report does not say. */
  sent?: Sent;
  /** Whether its response carried Deprecation and Sunset headers; absent where the report does not say. */
  announced?: Announced;
}

export type ReportFormat = 'har' | 'otlp' | 'ndjson';

export interface RawReport {
  /** Media type without parameters, lower case. */
  contentType: string;
  text: string;
}

export const REPORT_MEDIA_TYPES = ['application/json', 'application/har+json', 'application/x-ndjson'] as const;
const SPAN_SERVER = new Set<unknown>([2, 'SPAN_KIND_SERVER']);
const SPAN_CLIENT = new Set<unknown>([3, 'SPAN_KIND_CLIENT']);

/** The report's calls, or InvalidRequest naming the first problem (nothing is counted then). */
export function callsOf(schemas: SchemaRegistry, report: RawReport): { format: ReportFormat; calls: Call[] } {
  if (report.contentType === 'application/x-ndjson') return { format: 'ndjson', calls: ndjsonCalls(schemas, report.text) };
  const value = parseJson(report.text, 'body');
  if (isObject(value) && 'log' in value) return { format: 'har', calls: harCalls(schemas, value) };
  if (isObject(value) && 'resourceSpans' in value) return { format: 'otlp', calls: otlpCalls(schemas, value) };
  throw InvalidRequest.field('/', 'must be a HAR 1.2 archive ({"log": {"entries": [...]}}), an OTLP/HTTP JSON trace export ({"resourceSpans": [...]}) or NDJSON lines (Content-Type: application/x-ndjson)');
}

function harCalls(schemas: SchemaRegistry, har: Record<string, unknown>): Call[] {
  validate(schemas, 'reports/har.json', har, '');
  const entries = (har['log'] as { entries: Array<{ startedDateTime: string; request: { method: string; url: string; queryString?: unknown; headers?: unknown }; response: { status: number; headers?: unknown } }> }).entries;
  return entries.map((entry, index) => ({
    ...fromUrl(entry.request.url, `/log/entries/${index}/request/url`),
    ...fromHarEntry(entry),
    method: entry.request.method.toUpperCase(),
    status: entry.response.status || undefined,
    time: new Date(entry.startedDateTime),
    counts: true, client: true,
  }));
}

function ndjsonCalls(schemas: SchemaRegistry, text: string): Call[] {
  const lines = text.split('\n');
  const calls: Call[] = [];
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const at = `/${index}`;
    const value = parseJson(line, `line ${index + 1}`);
    validate(schemas, 'reports/ndjson-call.json', value, at);
    const entry = value as { method: string; url?: string; host?: string; path?: string; status?: number; time?: string | number; client?: string };
    if (entry.url === undefined && entry.path === undefined) throw InvalidRequest.field(at, 'must have url, or path (with host when the call\'s host matters)');
    const where = entry.path !== undefined
      ? { host: entry.host === undefined ? undefined : hostOf(entry.host, `${at}/host`), path: withoutQuery(entry.path) }
      : fromUrl(entry.url!, `${at}/url`, true);
    calls.push({
      ...where, method: entry.method.toUpperCase(), status: entry.status, time: timeOf(entry.time, `${at}/time`), counts: true, client: false,
      sent: queryNames(entry.url ?? entry.path!), ...(entry.client !== undefined && { caller: entry.client }),
    });
  });
  if (calls.length === 0) throw InvalidRequest.field('body', 'has no lines');
  return calls;
}

function otlpCalls(schemas: SchemaRegistry, export_: Record<string, unknown>): Call[] {
  validate(schemas, 'reports/otlp-traces.json', export_, '');
  const calls: Call[] = [];
  const groups = export_['resourceSpans'] as Array<{ resource?: { attributes?: Attribute[] }; scopeSpans?: Array<{ spans?: Span[] }> }>;
  groups.forEach((group, g) => {
    const caller = text(attributesOf(group.resource?.attributes)['service.name']);
    (group.scopeSpans ?? []).forEach((scope, s) => (scope.spans ?? []).forEach((span, i) => {
      const side = SPAN_SERVER.has(span.kind) ? 'server' : SPAN_CLIENT.has(span.kind) ? 'client' : undefined;
      const attributes = attributesOf(span.attributes);
      const method = text(attributes['http.request.method'] ?? attributes['http.method']);
      if (!side || method === undefined) return;
      const at = `/resourceSpans/${g}/scopeSpans/${s}/spans/${i}`;
      const full = text(attributes['url.full'] ?? attributes['http.url']);
      const path = text(attributes['url.path'] ?? attributes['http.target'] ?? attributes['http.route']);
      const where = full !== undefined ? fromUrl(full, `${at}/attributes`)
        : path !== undefined ? { host: hostFromAttributes(attributes, at), path: withoutQuery(path) }
        : undefined;
      if (!where) throw InvalidRequest.field(`${at}/attributes`, 'an HTTP span needs url.path, http.target, http.route or url.full');
      const status = Number(attributes['http.response.status_code'] ?? attributes['http.status_code']);
      calls.push({
        ...where, method: method.toUpperCase(), counts: side === 'server', client: side === 'client',
        status: Number.isInteger(status) ? status : undefined,
        time: span.startTimeUnixNano === undefined ? undefined : new Date(Number(BigInt(span.startTimeUnixNano) / 1_000_000n)),
        ...(caller !== undefined && { caller }),
      });
    }));
  });
  return calls;
}

interface Attribute { key: string; value?: Record<string, unknown> }
interface Span { kind?: unknown; startTimeUnixNano?: string | number; attributes?: Attribute[] }

function attributesOf(list: Attribute[] | undefined): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const { key, value } of list ?? []) {
    const scalar = value?.['stringValue'] ?? value?.['intValue'] ?? value?.['doubleValue'] ?? value?.['boolValue'];
    if (scalar !== undefined) values[key] = scalar;
  }
  return values;
}

function hostFromAttributes(attributes: Record<string, unknown>, at: string): string | undefined {
  const name = text(attributes['server.address'] ?? attributes['net.host.name'] ?? attributes['http.host']);
  if (name === undefined) return undefined;
  const port = text(attributes['server.port'] ?? attributes['net.host.port']);
  return hostOf(port === undefined || name.includes(':') ? name : `${name}:${port}`, `${at}/attributes`);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;
}

/** Host and path of a URL; a bare path (`/pets?x=1`) when `pathAllowed`. */
function fromUrl(url: string, at: string, pathAllowed = false): { host: string | undefined; path: string } {
  if (pathAllowed && url.startsWith('/')) return { host: undefined, path: withoutQuery(url) };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw InvalidRequest.field(at, 'must be an absolute URL');
  }
  return { host: parsed.host.toLowerCase(), path: parsed.pathname };
}

/** `api.example.com:443` → `api.example.com`: URL drops the port its scheme implies; both are tried. */
function hostOf(host: string, at: string): string {
  try {
    return new URL(`http://${host}`).host.replace(/:443$/, '').toLowerCase();
  } catch {
    throw InvalidRequest.field(at, 'must be a host name, optionally with a port');
  }
}

function withoutQuery(path: string): string {
  const end = path.search(/[?#]/);
  return end < 0 ? path : path.slice(0, end);
}

function timeOf(value: string | number | undefined, at: string): Date | undefined {
  if (value === undefined) return undefined;
  const time = new Date(value);
  if (Number.isNaN(time.getTime())) throw InvalidRequest.field(at, 'must be an ISO 8601 date-time or milliseconds since the epoch');
  return time;
}

function parseJson(textValue: string, field: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(textValue);
  } catch {
    throw InvalidRequest.field(field, 'is not valid JSON');
  }
  checkBody(value);
  return value;
}

function validate(schemas: SchemaRegistry, schema: string, value: unknown, at: string): void {
  const problems = schemas.check(`${SCHEMA_BASE}${schema}`)(value);
  if (problems.length > 0) throw new InvalidRequest(problems.map((problem: FieldProblem) => ({ ...problem, field: `${at}${problem.field === '/' ? '' : problem.field}` || '/' })));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
