// Where a service is in its life and who owns it, as its record says: the stages the Service
// schema allows, and the fields a listing shows beside a service's name (search hits, MCP).
import { defined, isObject, type JsonObject } from '../json/values.ts';

/** The Service schema's `lifecycle` values, in the order of a service's life. */
export const LIFECYCLE_STAGES = ['experimental', 'production', 'deprecated', 'retired'] as const;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** A Service record's owner, contact, lifecycle and links, those it has. */
export function ownershipOfRecord(record: Record<string, unknown>): JsonObject {
  return defined({
    owner: text(record['owner']),
    contact: isObject(record['contact']) ? record['contact'] : undefined,
    lifecycle: text(record['lifecycle']),
    links: isObject(record['links']) ? record['links'] : undefined,
  });
}
