// The records of each service as this process's last import of it left them, kept under the
// version's revision, so that the next import of the service (the CI job of every merge, its dry
// run, its failOn gate) plans from memory instead of reading them again. On FerretDB a read of a
// service's records scans every collection whole, whatever the filter (it pushes down only an
// `_id` equality): 38 s of the 64 s of Microsoft Graph beta's dry run. Kept records are used only
// while the version's revision is the one they were kept at, so a write by anyone since, on any
// instance, means they are read again, as they would have been.
import { LRUCache } from 'lru-cache';
import { listedBefore, type Revisions } from '../tenancy/revisions.ts';
import type { CatalogRecord, HeldWrite } from '../store/records.ts';

/** What an import reads before it plans: the service (by slug) and its records of each kind, by collection. */
export type ServiceRecords = ReadonlyMap<string, readonly CatalogRecord[]>;

/**
 * Records kept at most, all services together: Graph beta's 130,000 once, or many small ones.
 * What an import wrote is shared with the search index (indexes.ts takes the same records):
 * Graph beta's kept records held 33 MB of heap beyond it (`profile-changes.ts` with --expose-gc).
 */
const MAX_RECORDS = 150_000;

interface Kept { revision: string; records: ServiceRecords }

export class ImportedRecords {
  readonly #revisions: Revisions;
  readonly #kept: LRUCache<string, Kept>;
  /** Imports planned from kept records, for the specs. */
  recalled = 0;

  constructor(revisions: Revisions, maxRecords = MAX_RECORDS) {
    this.#revisions = revisions;
    this.#kept = new LRUCache<string, Kept>({ maxSize: maxRecords, sizeCalculation: ({ records }) => Math.max(1, countOf(records)) });
  }

  /**
   * The version's revision, read BEFORE any record (a write landing after it leaves a newer
   * one), and the service's records if they were kept at that revision; null revision when the
   * version is gone.
   */
  async recall(versionId: string, slug: string): Promise<{ revision: string | undefined; records: ServiceRecords | undefined }> {
    const revision = (await this.#revisions.of(versionId))?.token;
    const kept = this.#kept.get(keyOf(versionId, slug));
    if (revision === undefined || kept?.revision !== revision) return { revision, records: undefined };
    this.recalled += 1;
    return { revision, records: kept.records };
  }

  /** The records read (or recalled) at `revision` by an import that wrote nothing: still the version's at that revision. */
  keep(versionId: string, slug: string, revision: string | undefined, records: ServiceRecords): void {
    if (revision === undefined) return;
    this.#kept.set(keyOf(versionId, slug), { revision, records });
  }

  /**
   * After an import that read the records at `read` and wrote `written`: the records it leaves,
   * kept under the write's revision if nothing else was written to the version in between (the
   * write is listed right after `read`, tenancy/revisions.ts); otherwise the next import reads them.
   */
  async keepWritten(versionId: string, slug: string, read: string | undefined, before: ServiceRecords, written: HeldWrite): Promise<void> {
    this.forget(versionId, slug);
    if (read === undefined) return;
    const previous = listedBefore(await this.#revisions.changes(versionId), written.token);
    if (previous?.token !== read) return;
    this.#kept.set(keyOf(versionId, slug), { revision: written.token, records: applied(before, written) });
  }

  /** After an import that failed part-way: its records are read again. */
  forget(versionId: string, slug: string): void {
    this.#kept.delete(keyOf(versionId, slug));
  }
}

/** `before` with the written records in place of the ones they replace, the deleted ones gone, in id order (as a read gives them). */
function applied(before: ServiceRecords, written: HeldWrite): ServiceRecords {
  const after = new Map<string, readonly CatalogRecord[]>();
  for (const [name, records] of before) {
    const stored = written.records.get(name) ?? [];
    const gone = new Set(written.deleted.get(name) ?? []);
    if (stored.length === 0 && gone.size === 0) {
      after.set(name, records);
      continue;
    }
    const byId = new Map(records.filter((record) => !gone.has(record.id)).map((record) => [record.id, record]));
    for (const record of stored) byId.set(record.id, record);
    after.set(name, [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)));
  }
  return after;
}

function countOf(records: ServiceRecords): number {
  let count = 0;
  for (const list of records.values()) count += list.length;
  return count;
}

function keyOf(versionId: string, slug: string): string {
  return `${versionId}\u0000${slug}`;
}
