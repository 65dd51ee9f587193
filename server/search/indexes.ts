// The search indexes of this process: one per version, kept while fresh. Before one is used, the
// version's revision (tenancy/revisions.ts) is read by `_id`; when any instance has written to the
// version since the index was built, the records written (from the writes listed on the version)
// or, when the list cannot say, the collections written are read again, and the index built anew
// from them and the records kept. Bounded: the least recently used versions' indexes go
// first once the operations indexed pass a maximum. Each index is given its operations' vectors
// (vectors.ts) when the search model is loaded; a search fuses them in once they are all there.
// After an import in this process, what it wrote is applied to the kept index without a read
// (imported): the version's list of writes says whether it follows the kept revision directly.
import { LRUCache } from 'lru-cache';
import { outsideBudget } from '../store/budget.ts';
import type { HeldWrite, RecordStore } from '../store/records.ts';
import { listedBefore, revisionAfter, writtenBetween, type Revision, type Revisions } from '../tenancy/revisions.ts';
import { emptyView, patchedView, refreshedView, replacedView, viewOf } from './endpoints.ts';
import { titleOf } from './documents.ts';
import { VersionIndex, type Ranking, type SearchOptions } from './ranking.ts';
import type { SearchVectors } from './vectors.ts';

/** Operations indexed in one process at most: about 90 MB of heap per 10,000 with their records (docs/scaling.md). */
export const MAX_INDEXED_OPERATIONS = 100_000;

interface Kept { revision: Revision; index: VersionIndex }

export class SearchIndexes {
  readonly #stores: ReadonlyMap<string, RecordStore>;
  readonly #revisions: Revisions;
  readonly #kept: LRUCache<string, Kept>;
  /** Builds under way (or an import's records being applied), so that concurrent searches of one revision build once. */
  readonly #building = new Map<string, { token: string; built: Promise<Kept> }>();
  /** Indexes built, by what was read: every record, the records written, the collections written, or nothing (an import's records handed over). */
  readonly built = { whole: 0, patched: 0, reread: 0, handed: 0 };
  /** Operations' documents put in an index (all of a whole build's, only the touched ones of a patch). */
  indexedDocuments = 0;

  readonly vectors: SearchVectors | undefined;
  readonly #log: (message: string, fields?: Record<string, unknown>) => void;

  constructor(stores: ReadonlyMap<string, RecordStore>, revisions: Revisions, options: { maxOperations?: number; vectors?: SearchVectors; log?: (message: string, fields?: Record<string, unknown>) => void } = {}) {
    const maxOperations = options.maxOperations ?? MAX_INDEXED_OPERATIONS;
    this.#stores = stores;
    this.#revisions = revisions;
    this.vectors = options.vectors;
    this.#log = options.log ?? (() => {});
    this.#kept = new LRUCache({ maxSize: maxOperations, sizeCalculation: (kept) => Math.max(1, kept.index.size) });
  }

  /** The version's index as of now: kept, or built (a deleted version's is empty). */
  async of(versionId: string): Promise<VersionIndex> {
    // The revision first, the records after: a write in between leaves a newer revision than
    // the one the index is kept under, so the next search builds again.
    const revision = await this.#revisions.of(versionId);
    if (revision === null) {
      this.#kept.delete(versionId);
      return VersionIndex.of(emptyView(versionId, this.#stores));
    }
    const kept = this.#kept.get(versionId);
    if (kept?.revision.token === revision.token) {
      // Built before the model was loaded: its vectors are fetched behind this search.
      if (!kept.index.vectors && this.vectors?.model) void this.#withVectorsBehind(kept.index);
      return kept.index;
    }
    const building = this.#building.get(versionId);
    if (building?.token === revision.token) return (await building.built).index;
    const built = this.#build(versionId, revision, kept);
    this.#building.set(versionId, { token: revision.token, built });
    return (await built).index;
  }

  /**
   * The version's hits for a search, and what ranked them. The query is embedded while the
   * index is had; a model that is missing or still loading, or vectors not all had, leave the
   * index alone to rank.
   */
  async search(versionId: string, options: SearchOptions): Promise<{ ranking: Ranking; hits: Record<string, unknown>[] }> {
    const embedding = this.vectors?.query(options.query).catch((error: unknown) => {
      this.#log('search: the query could not be embedded; answered from the index alone', { error: String(error) });
      return undefined;
    });
    const index = await this.of(versionId);
    // Vectors still coming (an import's, behind its answer): the index ranks alone, and the
    // query's vector is not waited for (the model may be busy with them); it is kept for the next ask.
    const vector = index.vectors?.complete ? await embedding : undefined;
    return index.answer({ ...options, ...(vector ? { vector } : {}) });
  }

  /** `warm`, behind the answer of the request that wrote: outside its budget. */
  #warmBehind(versionId: string): Promise<void> {
    return outsideBudget(() => this.warm(versionId));
  }

  /** `#withVectors`, not waited for by the request that asked: outside its budget. */
  #withVectorsBehind(index: VersionIndex, previous?: VersionIndex): Promise<void> {
    return outsideBudget(() => this.#withVectors(index, previous));
  }

  /** Builds the version's index now (after an import), so that the next search finds it built. */
  async warm(versionId: string): Promise<void> {
    // The write is done whatever happens here; the next search builds again if this failed.
    await this.of(versionId).catch((error: unknown) => this.#log('search: the index could not be built after a write; the next search builds it', { error: String(error) }));
  }

  /**
   * After an import by this process: what it wrote (its own service's records as stored, and the
   * ids it deleted, under the one revision it gave the version) is swapped into the version's
   * kept index and view as a patch does (ranking.ts patched), nothing read back but the
   * version's list of writes, and kept under that revision: the next search is served at once.
   * Only when the list shows the import's revision directly after the kept one, or after the
   * version's creation with no records (a write in between, or a list cut short, would be
   * missed). Otherwise the index is built behind as after any write, by the freshness rule of
   * `of`, which is also how other instances see the import. Resolves once the records are
   * applied (they cost the import's own service, not the version), or at once when they wait
   * for a build under way or a build is started instead. Never throws: the import is written.
   */
  async imported(versionId: string, written: HeldWrite | undefined): Promise<void> {
    if (!written) {
      void this.#warmBehind(versionId);
      return;
    }
    try {
      const before = listedBefore(await this.#revisions.changes(versionId), written.token);
      const kept = this.#kept.get(versionId);
      const building = this.#building.get(versionId);
      // A search already building (or an index kept) at the import's revision: nothing to hand over.
      if (kept?.revision.token === written.token || building?.token === written.token) return;
      const base = !before ? undefined
        : kept?.revision.token === before.token ? kept
          : building?.token === before.token ? building.built
            : before.empty ? VersionIndex.of(emptyView(versionId, this.#stores)).then((index) => ({ revision: { token: before.token, collections: {} }, index }))
              : undefined;
      if (!base) {
        void this.#warmBehind(versionId);
        return;
      }
      const built = this.#handOver(versionId, base, written);
      this.#building.set(versionId, { token: written.token, built });
      // Behind a build under way, the import does not wait (that build is the version's cost); a search joins it.
      if (base === building?.built) void built.catch(() => {});
      else await built;
    } catch (error) {
      this.#log('search: an import\'s records could not be handed to the index; the next search builds it', { error: String(error) });
      void this.#warmBehind(versionId);
    }
  }

  /** The index of `base` with the import's records swapped in (see imported), kept under the import's revision. */
  async #handOver(versionId: string, base: Kept | Promise<Kept>, written: HeldWrite): Promise<Kept> {
    try {
      // Awaited first, so that the caller registers this hand-over as the build of its revision before anything is kept.
      const from = await base;
      const ids = new Map<string, Set<string>>();
      for (const name of written.collections) {
        if (!from.index.view.names.includes(name)) continue;
        ids.set(name, new Set([...(written.records.get(name) ?? []).map((record) => record.id), ...written.deleted.get(name) ?? []]));
      }
      let index = from.index;
      if (ids.size > 0) {
        index = await from.index.patched(replacedView(from.index.view, versionId, ids, written.records), ids);
        this.indexedDocuments += index.changed?.size ?? index.size;
        // Not waited for: operations not yet embedded are ranked by the index alone (the answer's `ranking` says so).
        void this.#withVectorsBehind(index, from.index);
      }
      this.built.handed += 1;
      const kept = { revision: revisionAfter(from.revision, written.token, written.collections), index };
      if (this.#building.get(versionId)?.token === written.token) this.#kept.set(versionId, kept);
      return kept;
    } finally {
      if (this.#building.get(versionId)?.token === written.token) this.#building.delete(versionId);
    }
  }

  /** Gives the index its table of vectors and fills it; a failure leaves it to the index alone. */
  async #withVectors(index: VersionIndex, previous?: VersionIndex): Promise<void> {
    const table = this.vectors?.tableOf(index.view, titleOf, previous?.vectors && index.changed && { table: previous.vectors, changed: index.changed });
    if (!table) return;
    index.vectors = table;
    await this.vectors!.fill(table, previous?.vectors).catch((error: unknown) => {
      this.#log('search: vectors could not be read or made; searches of this version rank by the index alone until its next write', { error: String(error) });
    });
  }

  async #build(versionId: string, revision: Revision, kept: Kept | undefined): Promise<Kept> {
    try {
      const index = await this.#fresh(versionId, revision, kept);
      if (index !== kept?.index) {
        this.indexedDocuments += index.changed?.size ?? index.size;
        await this.#withVectors(index, kept?.index);
      }
      // A build of an older revision that ends after a newer one started is not kept.
      if (this.#building.get(versionId)?.token === revision.token) this.#kept.set(versionId, { revision, index });
      return { revision, index };
    } finally {
      if (this.#building.get(versionId)?.token === revision.token) this.#building.delete(versionId);
    }
  }

  /**
   * From the kept index when there is one: only the records written since are read again, or,
   * when the version's list of writes cannot say which, the collections whose token changed.
   * The index is patched: the documents of the operations those records touch are made anew
   * (ranking.ts), and so are their vectors' texts (vectors.ts).
   */
  async #fresh(versionId: string, revision: Revision, kept: Kept | undefined): Promise<VersionIndex> {
    if (!kept) {
      this.built.whole += 1;
      return VersionIndex.of(await viewOf(this.#stores, versionId));
    }
    const changed = kept.index.view.names.filter((name) => (revision.collections[name] ?? '') !== (kept.revision.collections[name] ?? ''));
    // Writes to requests, responses or schemas only: nothing search shows changed.
    if (changed.length === 0) return kept.index;
    const written = writtenBetween(await this.#revisions.changes(versionId), kept.revision, revision, changed);
    if (written) {
      this.built.patched += 1;
      return kept.index.patched(await patchedView(this.#stores, kept.index.view, versionId, written), written);
    }
    this.built.reread += 1;
    return VersionIndex.of(await refreshedView(this.#stores, kept.index.view, versionId, changed));
  }
}
