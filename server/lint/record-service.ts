// The service whose description a record write changes: the Service itself, the service its
// `owner` field names, or, up its references (parameter → operation → path → service), the
// service its parents lead to. Undefined for a record of no service (a version-wide scheme).
import type { SchemaRegistry } from '../schemas/registry.ts';
import { fieldAt } from '../schemas/record-keys.ts';
import { SERVICES } from '../ownership/service-records.ts';
import type { RecordStore } from '../store/records.ts';

/** References followed at most: the deepest chain of schemas/collections.json is a few links long. */
const MAX_LINKS = 8;

export async function serviceOfRecord(schemas: SchemaRegistry, stores: ReadonlyMap<string, RecordStore>, versionId: string, collection: string, record: Readonly<Record<string, unknown>>): Promise<string | undefined> {
  let [kind, current]: [string, Readonly<Record<string, unknown>> | null] = [collection, record];
  for (let link = 0; current && link < MAX_LINKS; link += 1) {
    if (kind === SERVICES) return String(current['id']);
    const compiled = schemas.collections.find((each) => each.name === kind);
    if (!compiled) return undefined;
    const owner = compiled.owner === undefined ? undefined : fieldAt(current, compiled.owner);
    if (typeof owner === 'string') return owner;
    const [field, target] = [...compiled.references].find(([name]) => typeof current![name] === 'string') ?? [];
    if (field === undefined || target === undefined) return undefined;
    const parent: Readonly<Record<string, unknown>> | null = await stores.get(target)?.get(versionId, String(current[field])) ?? null;
    [kind, current] = [target, parent];
  }
  return undefined;
}
