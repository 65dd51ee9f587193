// The endpoints view: every documented operation of the chosen services with what was observed
// of it, and every undocumented method and path seen (shadow), each with its status since a
// date. Joined in memory from the version's records and its observations, then paged by a
// keyset over the view's order (service slug, path, method), as lists page by id.
import { InvalidRequest } from '../errors.ts';
import type { PaginationMetadata } from '../schemas/generated/types.ts';
import type { CatalogRecord } from '../store/records.ts';
import { endpointKey, type Observation } from './observations.ts';

export const STATUSES = ['active', 'zombie', 'orphan', 'unobserved', 'shadow'] as const;
export type Status = (typeof STATUSES)[number];
/** `since` defaults to this long ago. */
export const DEFAULT_SINCE_DAYS = 30;

export interface ViewQuery {
  service?: string;
  status?: Status;
  since: Date;
  /** The sort key of the first item to show. */
  after?: readonly string[];
  limit: number;
}

export interface EndpointItem {
  service: { id: string; slug: string };
  operation: { id: string; operationId: string; method: string; deprecated: boolean } | null;
  method: string;
  path: string;
  status: Status;
  count: number;
  firstSeenAt: string | null;
  lastSeenAt: string | null;
  statusCodes: Record<string, number>;
}

/** The view's query parameters, as their schemas checked and typed them. */
export type ViewParameters = {
  service?: string;
  status?: Status;
  /** RFC 3339 date-time. */
  since?: string;
  cursor?: string;
  limit: number;
};

/** What the view shows for these parameters (`since` defaults to DEFAULT_SINCE_DAYS before `now`). */
export function viewQuery({ service, status, since, cursor, limit }: ViewParameters, now = new Date()): ViewQuery {
  return {
    ...(service !== undefined && { service }),
    ...(status !== undefined && { status }),
    since: since === undefined ? new Date(now.getTime() - DEFAULT_SINCE_DAYS * 86_400_000) : new Date(since),
    ...(cursor !== undefined && { after: cursorKey(cursor) }),
    limit,
  };
}

/** One page of the view. */
export function endpointsPage(records: { services: CatalogRecord[]; paths: CatalogRecord[]; operations: CatalogRecord[] }, observations: readonly Observation[], query: ViewQuery):
  { items: EndpointItem[]; pagination: PaginationMetadata } {
  const services = new Map(records.services.map((service) => [service.id, service]));
  const paths = new Map(records.paths.map((path) => [path.id, path]));
  const seen = new Map(observations.map((observation) => [endpointKey(observation.serviceId, observation.method, observation.path), observation]));
  const items: EndpointItem[] = [];
  for (const operation of records.operations) {
    const path = paths.get(String(operation['pathId']));
    const service = path && services.get(String(path['serviceId']));
    if (!path || !service) continue;
    const method = String(operation['method']).toUpperCase();
    const key = endpointKey(service.id, method, String(path['path']));
    const observation = seen.get(key);
    seen.delete(key);
    const recent = observation !== undefined && observation.lastSeenAt >= query.since;
    const deprecated = operation['deprecated'] === true;
    const status: Status = recent ? (deprecated ? 'zombie' : 'active') : service['hasConnection'] === true ? 'orphan' : 'unobserved';
    items.push(item(service, { id: operation.id, operationId: String(operation['operationId']), method: String(operation['method']), deprecated }, method, String(path['path']), status, observation));
  }
  // What is left was seen and matches no documented operation.
  for (const observation of seen.values()) {
    const service = services.get(observation.serviceId);
    if (service && observation.lastSeenAt >= query.since) items.push(item(service, null, observation.method, observation.path, 'shadow', observation));
  }
  const chosen = items.filter((entry) => query.status === undefined || entry.status === query.status)
    .sort((a, b) => compareKeys(sortKey(a), sortKey(b)));
  const start = query.after === undefined ? 0 : chosen.findIndex((entry) => compareKeys(sortKey(entry), query.after!) >= 0);
  const page = start < 0 ? [] : chosen.slice(start, start + query.limit + 1);
  const next = page.length > query.limit ? page.pop() : undefined;
  return { items: page, pagination: { nextCursor: next ? cursorOf(sortKey(next)) : null, hasMore: next !== undefined, limit: query.limit } };
}

function item(service: CatalogRecord, operation: EndpointItem['operation'], method: string, path: string, status: Status, observation: Observation | undefined): EndpointItem {
  return {
    service: { id: service.id, slug: String(service['slug']) },
    operation, method, path, status,
    count: observation?.count ?? 0,
    firstSeenAt: observation?.firstSeenAt.toISOString() ?? null,
    lastSeenAt: observation?.lastSeenAt.toISOString() ?? null,
    statusCodes: observation?.statusCodes ?? {},
  };
}

/** The view's order; unique, since a documented and a shadow item never share service, path and method. */
function sortKey(entry: EndpointItem): string[] {
  return [entry.service.slug, entry.path, entry.method, entry.operation ? '' : 'shadow'];
}

function compareKeys(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < a.length; i++) {
    if (a[i]! !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  }
  return 0;
}

/**
 * The cursor is the next item's sort key itself (opaque, base64url JSON), not an id: the view is
 * computed, so a cursor whose item is gone (an operation deleted, a status changed) still says
 * exactly where the next page starts.
 */
function cursorOf(key: readonly string[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

function cursorKey(cursor: string): string[] {
  try {
    const key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(key) && key.length === 4 && key.every((part) => typeof part === 'string')) return key as string[];
  } catch {
    // Falls through to the refusal.
  }
  throw InvalidRequest.field('cursor', 'is not a cursor of this view (use pagination.nextCursor as given)');
}
