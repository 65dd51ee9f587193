// Which documented operation a call was: its service by the service's servers (host and base
// path, server variables expanded from their enum or default), then the operation by method and
// path template in a trie of the service's templates (templates.ts), where the most literal
// template wins (`/pets/mine` before `/pets/{petId}`). A call no template matches is kept under
// a template of its own: the service's documented segments kept, identifiers folded (ids.ts).
import type { CatalogRecord } from '../store/records.ts';
import { foldIds } from './ids.ts';
import type { Call } from './reports.ts';
import { TemplateTrie, segmentsOf, type Steps } from './templates.ts';

/** The records a matcher is built from: one version's. */
export interface MatchRecords {
  services: readonly CatalogRecord[];
  paths: readonly CatalogRecord[];
  operations: readonly CatalogRecord[];
  servers: readonly CatalogRecord[];
}

export interface Match {
  service: CatalogRecord;
  /** The operation's record and path template, or null (a shadow: the observed path as a template, ids folded). */
  operation: CatalogRecord | null;
  path: string;
  /** A shadow whose observed path had segments replaced by parameters: it stands for other calls too. */
  grouped?: true;
}

interface Documented {
  operation: CatalogRecord;
  path: string;
}

interface Base {
  service: CatalogRecord;
  /** Lower-case `host[:port]` without a default port; undefined for a relative server URL. */
  host: string | undefined;
  /** Without a trailing slash; '' for the root. */
  basePath: string;
}

/** Server variable combinations expanded per server at most; a description with more is unusual. */
const MAX_EXPANSIONS = 256;

export class Matcher {
  readonly #bases: Base[];
  readonly #templates = new Map<string, TemplateTrie<Documented>>();
  readonly #byId: Map<string, CatalogRecord>;
  readonly #memo = new Map<string, Match | null>();
  /** Template trie nodes visited by every look-up so far: what matching cost, independent of the machine. */
  readonly steps: Steps = { count: 0 };

  constructor(records: MatchRecords) {
    this.#byId = new Map(records.services.map((service) => [service.id, service]));
    const paths = new Map(records.paths.map((path) => [path.id, path]));
    for (const operation of records.operations) {
      const path = paths.get(String(operation['pathId']));
      const service = path && this.#byId.get(String(path['serviceId']));
      if (!path || !service) continue;
      let templates = this.#templates.get(service.id);
      if (!templates) this.#templates.set(service.id, templates = new TemplateTrie());
      // The same template twice with other parameter names: the first stays, the other is never matched.
      templates.add(String(operation['method']).toUpperCase(), String(path['path']), { operation, path: String(path['path']) });
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
    if (base) return this.#shadow(base.service, rest(call.path, base.basePath));
    if (!fallback) return null;
    // The report says whose calls these are: strip the longest of the service's base paths that fits.
    const own = this.#bases.find((candidate) => candidate.service.id === fallback.id && underBase(call.path, candidate.basePath));
    const path = rest(call.path, own?.basePath ?? '');
    return this.#operation(fallback, call.method, path) ?? this.#shadow(fallback, path);
  }

  /** An undocumented call as a template: where the service documents a parameter, that parameter; elsewhere ids folded. */
  #shadow(service: CatalogRecord, path: string): Match {
    const { path: template, folded } = foldIds(segmentsOf(path), this.#templates.get(service.id)?.shape(path));
    return { service, operation: null, path: template, ...(folded && { grouped: true as const }) };
  }

  #basesAt(host: string, path: string): Base[] {
    return this.#bases.filter((base) => base.host !== undefined && sameHost(base.host, host) && underBase(path, base.basePath));
  }

  #operation(service: CatalogRecord, method: string, path: string): Match | null {
    const found = this.#templates.get(service.id)?.find(method, path, this.steps);
    return found ? { service, operation: found.operation, path: found.path } : null;
  }
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
