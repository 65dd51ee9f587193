// The services' exports the changes pages compare, kept per version revision: an export reads
// every record kind of the version (on FerretDB, a scan of each collection, whatever the filter),
// and the changes page compared two exports made anew on every call (127 s for GitHub against its
// own version at load 30). A kept export is used while the version's revision
// (tenancy/revisions.ts, replaced after every write to its records) is the one it was made at, so a
// page right after a write shows the write. The changes of one service between two revisions are
// kept the same way. These are the exports the interface's changes report compares
// (changes/catalog.ts snapshotOf): of the records alone, without the parts an import keeps beside
// the Service record (descriptions/service-parts.ts), which no revision follows; the export links
// of the pages export afresh, parts and all, as the interface does.
import { LRUCache } from 'lru-cache';
import { serviceChanges, type Change } from '../changes/catalog.ts';
import { exportService } from '../descriptions/export.ts';
import { serviceScoped } from '../views/service-records.ts';
import type { CatalogRecord, RecordStore } from '../store/records.ts';
import type { Revisions } from '../tenancy/revisions.ts';

/** Exports kept at most: a comparison needs two; GitHub's is 10 MB as JSON, Graph beta's five times that. */
const MAX_EXPORTS = 6;
/** Comparisons kept at most (a report is small). */
const MAX_COMPARISONS = 256;

/** An export, and the version revision it was made at ('' for a deleted version: nothing kept). */
export interface Exported { revision: string; document: Record<string, unknown> }

export class KeptExports {
  readonly #stores: ReadonlyMap<string, RecordStore>;
  readonly #revisions: Revisions;
  readonly #exports = new LRUCache<string, Promise<Record<string, unknown>>>({ max: MAX_EXPORTS });
  readonly #comparisons = new LRUCache<string, Change[]>({ max: MAX_COMPARISONS });
  /** Exports made (not found kept), for the specs. */
  made = 0;

  constructor(stores: ReadonlyMap<string, RecordStore>, revisions: Revisions) {
    this.#stores = stores;
    this.#revisions = revisions;
  }

  /** The service's export as of now: kept at the version's current revision, or made. */
  async of(versionId: string, service: CatalogRecord): Promise<Exported> {
    // The revision first, the records after: a write in between leaves a newer revision than
    // the one the export is kept under, so the next call exports again.
    const revision = (await this.#revisions.of(versionId))?.token;
    if (revision === undefined) return { revision: '', document: await exportService(serviceScoped(this.#stores, versionId, service), versionId, service) };
    const key = JSON.stringify([versionId, revision, service.id]);
    let document = this.#exports.get(key);
    if (!document) {
      this.made += 1;
      document = exportService(serviceScoped(this.#stores, versionId, service), versionId, service);
      this.#exports.set(key, document);
      // A failed export is not kept: the next call tries again.
      document.catch(() => this.#exports.get(key) === document && this.#exports.delete(key));
    }
    return { revision, document: await document };
  }

  /**
   * The changes of service `slug` from `before` to `after` (each the service's record in that
   * version, absent when it is not there; not both absent), kept per pair of revisions.
   */
  async changes(slug: string, before: { versionId: string; service?: CatalogRecord }, after: { versionId: string; service?: CatalogRecord }): Promise<Change[]> {
    // A copy not written since, nor its source, holds the same records (as the interface's report
    // finds, changes/routes.ts): nothing to export (Graph beta: minutes of reads on FerretDB).
    if (before.service && after.service?.id === before.service.id && await this.#revisions.sameRecords(before.versionId, after.versionId)) return [];
    const side = async ({ versionId, service }: { versionId: string; service?: CatalogRecord }) => (service ? { service, ...await this.of(versionId, service) } : undefined);
    const [was, is] = [await side(before), await side(after)];
    const key = JSON.stringify([slug, before.versionId, was?.revision, was?.service.id, after.versionId, is?.revision, is?.service.id]);
    // A side of a deleted version is never kept (its revision is '').
    const keep = was?.revision !== '' && is?.revision !== '';
    const kept = keep ? this.#comparisons.get(key) : undefined;
    if (kept) return kept;
    const changes = await serviceChanges(slug, was, is);
    if (keep) this.#comparisons.set(key, changes);
    return changes;
  }
}
