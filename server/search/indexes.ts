// The search indexes of this process: one per version, kept while fresh. Before one is used, the
// version's revision (store/revisions.ts) is read by `_id`; when any instance has written to the
// version since the index was built, the records written (from the writes listed on the version)
// or, when the list cannot say, the collections written are read again, and the index built anew
// from them and the records kept. Bounded: the least recently used versions' indexes go
// first once the operations indexed pass a maximum.
import { LRUCache } from 'lru-cache';
import type { RecordStore } from '../store/records.ts';
import { writtenBetween, type Revision, type Revisions } from '../store/revisions.ts';
import { emptyView, patchedView, refreshedView, SEARCH_COLLECTIONS, viewOf, type Name } from './endpoints.ts';
import { VersionIndex } from './ranking.ts';

/** Operations indexed in one process at most: about 90 MB of heap per 10,000 with their records (docs/scaling.md). */
export const MAX_INDEXED_OPERATIONS = 100_000;

interface Kept { revision: Revision; index: VersionIndex }

export class SearchIndexes {
  readonly #stores: ReadonlyMap<string, RecordStore>;
  readonly #revisions: Revisions;
  readonly #kept: LRUCache<string, Kept>;
  /** Builds under way, so that concurrent searches of one revision build once. */
  readonly #building = new Map<string, { revision: string; index: Promise<VersionIndex> }>();
  /** Indexes built, by what was read: every record, the records written, or the collections written. */
  readonly built = { whole: 0, patched: 0, reread: 0 };

  constructor(stores: ReadonlyMap<string, RecordStore>, revisions: Revisions, maxOperations = MAX_INDEXED_OPERATIONS) {
    this.#stores = stores;
    this.#revisions = revisions;
    this.#kept = new LRUCache({ maxSize: maxOperations, sizeCalculation: (kept) => Math.max(1, kept.index.size) });
  }

  /** The version's index as of now: kept, or built (a deleted version's is empty). */
  async of(versionId: string): Promise<VersionIndex> {
    // The revision first, the records after: a write in between leaves a newer revision than
    // the one the index is kept under, so the next search builds again.
    const revision = await this.#revisions.of(versionId);
    if (revision === null) {
      this.#kept.delete(versionId);
      return VersionIndex.of(emptyView(versionId));
    }
    const kept = this.#kept.get(versionId);
    if (kept?.revision.version === revision.version) return kept.index;
    const building = this.#building.get(versionId);
    if (building?.revision === revision.version) return building.index;
    const index = this.#build(versionId, revision, kept);
    this.#building.set(versionId, { revision: revision.version, index });
    return index;
  }

  async #build(versionId: string, revision: Revision, kept: Kept | undefined): Promise<VersionIndex> {
    try {
      const index = await this.#fresh(versionId, revision, kept);
      // A build of an older revision that ends after a newer one started is not kept.
      if (this.#building.get(versionId)?.revision === revision.version) this.#kept.set(versionId, { revision, index });
      return index;
    } finally {
      if (this.#building.get(versionId)?.revision === revision.version) this.#building.delete(versionId);
    }
  }

  /**
   * From the kept index when there is one: only the records written since are read again, or,
   * when the version's list of writes cannot say which, the collections whose token changed.
   * The index is built anew from the view (the cheap part; the kept one may still be in use).
   */
  async #fresh(versionId: string, revision: Revision, kept: Kept | undefined): Promise<VersionIndex> {
    if (!kept) {
      this.built.whole += 1;
      return VersionIndex.of(await viewOf(this.#stores, versionId));
    }
    const changed = SEARCH_COLLECTIONS.filter((name: Name) => (revision.collections[name] ?? '') !== (kept.revision.collections[name] ?? ''));
    // Writes to requests, responses or schemas only: nothing search shows changed.
    if (changed.length === 0) return kept.index;
    const written = writtenBetween(await this.#revisions.changes(versionId), kept.revision, revision, changed);
    if (written) {
      this.built.patched += 1;
      return VersionIndex.of(await patchedView(this.#stores, kept.index.view, versionId, written));
    }
    this.built.reread += 1;
    return VersionIndex.of(await refreshedView(this.#stores, kept.index.view, versionId, changed));
  }
}
