// The Service fields insights keep true: hasConnection, lastConnectionAt, lastReportAt and
// lastMentionAt. They are fields of the Service record, so they are written like a PATCH of
// them (the record's lock on FerretDB, one `$set`), and the write moves the record's updatedAt.
import { RecordNotFound } from '../errors.ts';
import type { CatalogRecord, RecordStore } from '../store/records.ts';

/** A service by id (`svc_…`) or slug among a version's services. */
export function findService(services: readonly CatalogRecord[], ref: string): CatalogRecord | undefined {
  return services.find((service) => service.id === ref) ?? services.find((service) => service['slug'] === ref);
}

/** The service by id or slug, read from the store; 404 when none. */
export async function serviceNamed(store: RecordStore, versionId: string, ref: string): Promise<CatalogRecord> {
  const service = ref.startsWith(store.collection.idPrefix) ? await store.get(versionId, ref) : undefined;
  const found = service ?? (await store.list({ versionId, filters: { slug: ref }, sort: [{ field: 'id', direction: 1 }], cursor: undefined, limit: 1 })).items[0];
  if (!found) throw new RecordNotFound(store.collection.notFound);
  return found;
}

/** Sets the fields on the service; the record after, or null when it was deleted meanwhile. */
export async function touchService(store: RecordStore, versionId: string, id: string, fields: Record<string, unknown>, now = new Date()): Promise<CatalogRecord | null> {
  return store.exclusive(versionId, id, async () => {
    const current = await store.get(versionId, id);
    if (!current) return null;
    return store.update(versionId, id, fields, now, { ...current, ...fields });
  });
}
