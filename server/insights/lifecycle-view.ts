// The lifecycle view: every operation and parameter of the chosen services that is deprecated
// or has a sunset date, with the calls still seen (how many, when last, by which client) and
// whether their responses announced it (Deprecation and Sunset headers). Joined in memory from
// the version's records and the counts ingest keeps (lifecycle-calls.ts).
import type { CatalogRecord } from '../store/records.ts';
import { goingAway, type LifecycleDelta } from './lifecycle-calls.ts';

export interface LifecycleItem {
  service: { id: string; slug: string };
  operation: { id: string; operationId: string; method: string; path: string };
  parameter: { id: string; name: string; in: string } | null;
  deprecated: boolean;
  sunset: string | null;
  calls: number;
  lastSeenAt: string | null;
  clients: { client: string | null; calls: number; lastSeenAt: string }[];
  responses: { observed: number; deprecationHeader: number; sunsetHeader: number };
}

export interface VersionRecords {
  services: readonly CatalogRecord[];
  paths: readonly CatalogRecord[];
  operations: readonly CatalogRecord[];
  parameters: readonly CatalogRecord[];
}

export function lifecycleItems(records: VersionRecords, counts: readonly LifecycleDelta[]): LifecycleItem[] {
  const services = new Map(records.services.map((service) => [service.id, service]));
  const paths = new Map(records.paths.filter((path) => services.has(String(path['serviceId']))).map((path) => [path.id, path]));
  const byItem = Map.groupBy(counts, (count) => `${count.operationId} ${count.item}`);
  const items: LifecycleItem[] = [];
  for (const operation of records.operations) {
    const path = paths.get(String(operation['pathId']));
    if (!path) continue;
    const service = services.get(String(path['serviceId']))!;
    const place = { service: { id: service.id, slug: String(service['slug']) }, operation: { id: operation.id, operationId: String(operation['operationId']), method: String(operation['method']).toUpperCase(), path: String(path['path']) } };
    if (goingAway(operation)) items.push(itemOf(place, null, operation, byItem.get(`${operation.id} operation`) ?? []));
    // Its own parameters and its path's: counted per operation that sent them.
    for (const parameter of records.parameters) {
      if (!goingAway(parameter) || (parameter['operationId'] !== operation.id && parameter['pathId'] !== path.id)) continue;
      items.push(itemOf(place, { id: parameter.id, name: String(parameter['name']), in: String(parameter['in']) }, parameter, byItem.get(`${operation.id} ${parameter.id}`) ?? []));
    }
  }
  return items.sort((a, b) => order(a).localeCompare(order(b)));
}

function itemOf(place: Pick<LifecycleItem, 'service' | 'operation'>, parameter: LifecycleItem['parameter'], record: CatalogRecord, counts: readonly LifecycleDelta[]): LifecycleItem {
  const last = counts.reduce<Date | null>((latest, count) => (latest === null || count.lastSeenAt > latest ? count.lastSeenAt : latest), null);
  return {
    ...place, parameter,
    deprecated: record['deprecated'] === true,
    sunset: typeof record['sunset'] === 'string' ? record['sunset'] : null,
    calls: sum(counts, 'count'),
    lastSeenAt: last?.toISOString() ?? null,
    clients: counts.map((count) => ({ client: count.client === '' ? null : count.client, calls: count.count, lastSeenAt: count.lastSeenAt.toISOString() }))
      .sort((a, b) => b.calls - a.calls || String(a.client).localeCompare(String(b.client))),
    responses: { observed: sum(counts, 'responses'), deprecationHeader: sum(counts, 'deprecation'), sunsetHeader: sum(counts, 'sunset') },
  };
}

function sum(counts: readonly LifecycleDelta[], field: 'count' | 'responses' | 'deprecation' | 'sunset'): number {
  return counts.reduce((total, count) => total + count[field], 0);
}

function order(item: LifecycleItem): string {
  return [item.service.slug, item.operation.path, item.operation.method, item.parameter ? `1 ${item.parameter.in} ${item.parameter.name}` : '0'].join('\u0000');
}
