// Which stored records belong to a service: found through its references (paths → operations →
// parameters, requests, responses, servers; security schemes by their owner) or, for the kinds
// that have no reference to a service, through the import's marker in kvStorage.
import type { CatalogRecord } from '../store/records.ts';
import { markOf } from './keys.ts';

export function recordsOfService(serviceId: string, all: ReadonlyMap<string, readonly CatalogRecord[]>): Map<string, CatalogRecord[]> {
  const of = (name: string): readonly CatalogRecord[] => all.get(name) ?? [];
  const paths = of('paths').filter((record) => record['serviceId'] === serviceId);
  const pathIds = new Set(paths.map((record) => record.id));
  const operations = of('operations').filter((record) => pathIds.has(record['pathId'] as string));
  const operationIds = new Set(operations.map((record) => record.id));
  const underOperation = (record: CatalogRecord): boolean => operationIds.has(record['operationId'] as string);
  const marked = (record: CatalogRecord): boolean => markOf(record)?.service === serviceId;
  return new Map<string, CatalogRecord[]>([
    ['services', of('services').filter((record) => record.id === serviceId)],
    ['paths', paths],
    ['operations', operations],
    ['parameters', of('parameters').filter((record) => pathIds.has(record['pathId'] as string) || underOperation(record))],
    ['requests', of('requests').filter(underOperation)],
    ['responses', of('responses').filter(underOperation)],
    ['servers', of('servers').filter((record) => record['serviceId'] === serviceId || pathIds.has(record['pathId'] as string) || underOperation(record))],
    ['resources', of('resources').filter(marked)],
    ['security-schemes', of('security-schemes').filter((record) => record['serviceId'] === serviceId)],
    ['headers', of('headers').filter(marked)],
    ['examples', of('examples').filter(marked)],
  ]);
}

/**
 * The security scheme a requirement of a service names: the service's own scheme of that name,
 * else the version-wide one (no owner: made over HTTP without `serviceId`); never another
 * service's, since two services may each have their own `api_key` (decisions.md, natural keys).
 */
export function schemeNamed(schemes: readonly CatalogRecord[], serviceId: string | undefined, name: string): CatalogRecord | undefined {
  return (serviceId === undefined ? undefined : schemes.find((record) => record['serviceId'] === serviceId && record['name'] === name))
    ?? schemes.find((record) => record['serviceId'] === undefined && record['name'] === name);
}
