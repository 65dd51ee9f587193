// The Service fields insights keep true: hasConnection, lastConnectionAt, lastReportAt and
// lastMentionAt. They are fields of the Service record, so they are written like a PATCH of
// them (the record's lock on FerretDB, one `$set`), and the write moves the record's updatedAt.
// (A service named by slug or id is found by the pipeline's stages: pipeline/stages.ts.)
import type { CatalogRecord, RecordStore } from '../store/records.ts';

/** Sets the fields on the service; the record after, or null when it was deleted meanwhile. */
export async function touchService(store: RecordStore, versionId: string, id: string, fields: Record<string, unknown>, now = new Date()): Promise<CatalogRecord | null> {
  return store.exclusive(versionId, id, async () => {
    const current = await store.get(versionId, id);
    if (!current) return null;
    return store.update(versionId, id, fields, now, { ...current, ...fields });
  });
}
