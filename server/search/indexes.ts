// The search indexes of this process: one per version, kept while fresh. Before one is used, the
// version's revision (store/revisions.ts) is read by `_id`; when any instance has written to the
// version since the index was built, it is built again from the records. Bounded: the least
// recently used versions' indexes go first once the operations indexed pass a maximum.
import { LRUCache } from 'lru-cache';
import type { RecordStore } from '../store/records.ts';
import { Revisions } from '../store/revisions.ts';
import { emptyView, viewOf } from './endpoints.ts';
import { VersionIndex } from './ranking.ts';

/** Operations indexed in one process at most: about 20 MB each 10,000 (docs/scaling.md). */
export const MAX_INDEXED_OPERATIONS = 200_000;

interface Kept { revision: string; index: VersionIndex }

export class SearchIndexes {
  readonly #stores: ReadonlyMap<string, RecordStore>;
  readonly #revisions: Revisions;
  readonly #kept: LRUCache<string, Kept>;
  /** Builds under way, so that concurrent searches of one revision build once. */
  readonly #building = new Map<string, { revision: string; index: Promise<VersionIndex> }>();

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
    if (kept?.revision === revision) return kept.index;
    const building = this.#building.get(versionId);
    if (building?.revision === revision) return building.index;
    const index = this.#build(versionId, revision);
    this.#building.set(versionId, { revision, index });
    return index;
  }

  async #build(versionId: string, revision: string): Promise<VersionIndex> {
    try {
      const index = await VersionIndex.of(await viewOf(this.#stores, versionId));
      // A build of an older revision that ends after a newer one started is not kept.
      if (this.#building.get(versionId)?.revision === revision) this.#kept.set(versionId, { revision, index });
      return index;
    } finally {
      if (this.#building.get(versionId)?.revision === revision) this.#building.delete(versionId);
    }
  }
}
