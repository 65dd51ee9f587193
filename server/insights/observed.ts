// `observed` on endpoint hits (search, MCP get_endpoint): how often and how lately the endpoint
// was called, from the observations, or null when never. Hits carry their service, method and
// path template, which is all the observation key needs, so no record is read again.
import { endpointKey, type Observations } from './observations.ts';

export interface Observed {
  count: number;
  lastSeenAt: string;
}

interface Hit {
  service?: unknown;
  operation?: unknown;
  path?: unknown;
}

/** The hits, each with `observed`; one read of the version's observations for all of them. */
export async function withObserved<T extends Hit>(observations: Observations, versionId: string, hits: readonly T[]): Promise<Array<T & { observed: Observed | null }>> {
  const keyed = hits.map((hit) => [hit, keyOf(hit)] as const);
  const serviceIds = [...new Set(keyed.flatMap(([, key]) => (key ? [key.serviceId] : [])))];
  const seen = serviceIds.length === 0 ? [] : await observations.of(versionId, serviceIds);
  const byKey = new Map(seen.map((observation) => [endpointKey(observation.serviceId, observation.method, observation.path), observation]));
  return keyed.map(([hit, key]) => {
    const observation = key && byKey.get(endpointKey(key.serviceId, key.method, key.path));
    return { ...hit, observed: observation ? { count: observation.count, lastSeenAt: observation.lastSeenAt.toISOString() } : null };
  });
}

function keyOf(hit: Hit): { serviceId: string; method: string; path: string } | undefined {
  const serviceId = (hit.service as { id?: unknown } | null | undefined)?.id;
  const method = (hit.operation as { method?: unknown } | undefined)?.method;
  const path = (hit.path as { path?: unknown } | undefined)?.path;
  if (typeof serviceId !== 'string' || typeof method !== 'string' || typeof path !== 'string') return undefined;
  return { serviceId, method, path };
}
