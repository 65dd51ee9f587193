// Which documented operation a call was: its service by the service's servers (host and base
// path, server variables expanded from their enum or default), then the operation by method and
// path template in a find-my-way router, which prefers, segment by segment, a literal over a
// parameter (so `/pets/mine` wins over `/pets/{petId}`: the most literal template wins).
import FindMyWay from 'find-my-way';
import type { CatalogRecord } from '../store/records.ts';
import type { Call } from './reports.ts';

/** The records a matcher is built from: one version's. */
export interface MatchRecords {
  services: readonly CatalogRecord[];
  paths: readonly CatalogRecord[];
  operations: readonly CatalogRecord[];
  servers: readonly CatalogRecord[];
}

export interface Match {
  service: CatalogRecord;
  /** The operation's record and path template, or null (a shadow: the observed path, ids folded). */
  operation: CatalogRecord | null;
  path: string;
}

interface Base {
  service: CatalogRecord;
  /** Lower-case `host[:port]` without a default port; undefined for a relative server URL. */
  host: string | undefined;
  /** Without a trailing slash; '' for the root. */
  basePath: string;
}

type Router = ReturnType<typeof FindMyWay>;
/** Server variable combinations expanded per server at most; a description with more is unusual. */
const MAX_EXPANSIONS = 256;

export class Matcher {
  readonly #bases: Base[];
  readonly #routers = new Map<string, Router>();
  readonly #byId: Map<string, CatalogRecord>;
  readonly #memo = new Map<string, Match | null>();

  constructor(records: MatchRecords) {
    this.#byId = new Map(records.services.map((service) => [service.id, service]));
    const paths = new Map(records.paths.map((path) => [path.id, path]));
    for (const operation of records.operations) {
      const path = paths.get(String(operation['pathId']));
      const service = path && this.#byId.get(String(path['serviceId']));
      if (!path || !service) continue;
      let router = this.#routers.get(service.id);
      if (!router) this.#routers.set(service.id, router = FindMyWay({ ignoreTrailingSlash: true, maxParamLength: 1000 }));
      const route = routeOf(String(path['path']));
      try {
        router.on(String(operation['method']).toUpperCase() as 'GET', route, () => {}, { operation, path: String(path['path']) });
      } catch {
        // A template the router cannot hold (a wildcard character), or the same one twice with other
        // parameter names: the first stays, the other is never matched.
      }
    }
    const ownerOf = (server: CatalogRecord): CatalogRecord | undefined => {
      if (typeof server['serviceId'] === 'string') return this.#byId.get(server['serviceId']);
      const path = typeof server['pathId'] === 'string' ? paths.get(server['pathId'])
        : paths.get(String(records.operations.find((operation) => operation.id === server['operationId'])?.['pathId']));
      return path && this.#byId.get(String(path['serviceId']));
    };
    this.#bases = records.servers.flatMap((server) => {
      const service = ownerOf(server);
      return service ? expand(String(server['url']), server['variables']).map((url) => ({ service, ...baseOf(url) })) : [];
    // The longest base path first: `/v2` before `/`.
    }).sort((a, b) => b.basePath.length - a.basePath.length);
  }

  /** The service, if any, and the operation, if any, the call was; `fallback` attributes host-less or unknown hosts. */
  match(call: Pick<Call, 'method' | 'host' | 'path'>, fallback?: CatalogRecord): Match | null {
    const key = `${call.method} ${call.host ?? ''} ${call.path}`;
    let found = this.#memo.get(key);
    if (found === undefined) {
      found = this.#find(call, fallback);
      this.#memo.set(key, found);
    }
    return found;
  }

  /** The service a host (and path) belongs to, whatever the method: for mentions. */
  serviceAt(host: string | undefined, path: string): CatalogRecord | undefined {
    return host === undefined ? undefined : this.#basesAt(host, path)[0]?.service;
  }

  #find(call: Pick<Call, 'method' | 'host' | 'path'>, fallback: CatalogRecord | undefined): Match | null {
    const candidates = call.host === undefined ? [] : this.#basesAt(call.host, call.path);
    for (const base of candidates) {
      const operation = this.#operation(base.service, call.method, rest(call.path, base.basePath));
      if (operation) return operation;
    }
    const base = candidates[0];
    if (base) return { service: base.service, operation: null, path: foldIds(rest(call.path, base.basePath)) };
    if (!fallback) return null;
    // The report says whose calls these are: strip the longest of the service's base paths that fits.
    const own = this.#bases.find((candidate) => candidate.service.id === fallback.id && underBase(call.path, candidate.basePath));
    const path = rest(call.path, own?.basePath ?? '');
    return this.#operation(fallback, call.method, path) ?? { service: fallback, operation: null, path: foldIds(path) };
  }

  #basesAt(host: string, path: string): Base[] {
    return this.#bases.filter((base) => base.host !== undefined && sameHost(base.host, host) && underBase(path, base.basePath));
  }

  #operation(service: CatalogRecord, method: string, path: string): Match | null {
    const found = this.#routers.get(service.id)?.find(method as 'GET', path);
    if (!found) return null;
    const { operation, path: template } = found.store as { operation: CatalogRecord; path: string };
    return { service, operation, path: template };
  }
}

/** `/pets/{petId}` → `/pets/:p0`: parameter names dropped (they may hold any character), `:` escaped. */
function routeOf(template: string): string {
  let n = 0;
  return template.split(/(\{[^}]*\})/).map((part) => (part.startsWith('{') && part.endsWith('}') ? `:p${n++}` : part.replaceAll(':', '::'))).join('');
}

/** Every URL a server template stands for: each variable's enum values, else its default. */
export function expand(url: string, variables: unknown): string[] {
  const defined = (typeof variables === 'object' && variables !== null ? variables : {}) as Record<string, { default?: unknown; enum?: unknown }>;
  let urls = [url];
  for (const [name, variable] of Object.entries(defined)) {
    const values = Array.isArray(variable.enum) && variable.enum.length > 0 ? variable.enum.map(String) : [String(variable.default ?? '')];
    urls = urls.flatMap((current) => values.map((value) => current.replaceAll(`{${name}}`, value))).slice(0, MAX_EXPANSIONS);
  }
  return urls;
}

function baseOf(url: string): { host: string | undefined; basePath: string } {
  try {
    // Protocol-relative (`//kubernetes.local`): the host is known, the scheme is the caller's.
    const parsed = new URL(url.startsWith('//') ? `https:${url}` : url);
    return { host: parsed.host.toLowerCase(), basePath: parsed.pathname.replace(/\/+$/, '') };
  } catch {
    // Relative (`/v1`): the host is wherever the description was served from, which we do not know.
    return { host: undefined, basePath: (url.split(/[?#]/)[0] ?? '').replace(/\/+$/, '') };
  }
}

/** Hosts match by name; ports only when both say one (a report's `api.example.com` is `api.example.com:443`). */
function sameHost(server: string, call: string): boolean {
  if (server === call) return true;
  const [serverName, serverPort] = server.split(/:(?=\d+$)/);
  const [callName, callPort] = call.split(/:(?=\d+$)/);
  return serverName === callName && (serverPort === undefined || callPort === undefined || serverPort === callPort);
}

function underBase(path: string, basePath: string): boolean {
  return basePath === '' || path === basePath || path.startsWith(`${basePath}/`);
}

function rest(path: string, basePath: string): string {
  return path.slice(basePath.length) || '/';
}

const ID_SEGMENT = [
  /^\d+$/,
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  /^[0-9a-f]{16,}$/i,
  /^([a-z]+_)*[0-9A-HJKMNP-TV-Z]{26}$/,
];

/** An undocumented path as one endpoint: numbers, UUIDs, long hex and ULIDs (`op_01J…` too) become `{id}`. */
export function foldIds(path: string): string {
  return path.split('/').map((segment) => (ID_SEGMENT.some((pattern) => pattern.test(segment)) ? '{id}' : segment)).join('/');
}
