// What endpointDetail (endpoints.ts) reads besides the search view: the version's request bodies,
// responses and component schemas (Resources), kept in memory per version as the search index
// keeps its view (indexes.ts), so that an operation's page or MCP get_endpoint costs a read of
// the version's revision by `_id` once the version has been read. On FerretDB each read other than
// by `_id` scans its whole collection (13 s for one operation's bodies and responses among a
// 2,700-operation version at load 30); here the three collections are read once per version,
// and after a write only the records written (from the writes listed on the version,
// store/revisions.ts) or, when the list cannot say, the collections written. An import hands its
// records over as it answers (imported), as it does to the search index: an operation's page
// right after an import reads nothing.
import { LRUCache } from 'lru-cache';
import { inDocumentOrder } from '../store/mark.ts';
import type { CatalogRecord, HeldWrite, RecordStore } from '../store/records.ts';
import { listedBefore, revisionAfter, Revisions, writtenBetween, type Revision } from '../store/revisions.ts';

export const DETAIL_COLLECTIONS = ['requests', 'responses', 'resources'] as const;
type DetailName = typeof DETAIL_COLLECTIONS[number];

/** Records kept in one process at most (bodies, responses and schemas of all versions kept): the least recently used versions go first. */
export const MAX_DETAIL_RECORDS = 400_000;

/** One version's bodies, responses and schemas, grouped for an operation's lookups. */
export class VersionDetails {
  readonly records: ReadonlyMap<DetailName, readonly CatalogRecord[]>;
  readonly #byOperation = new Map<DetailName, Map<string, CatalogRecord[]>>();
  #components: Map<string, unknown> | undefined;

  constructor(records: ReadonlyMap<DetailName, readonly CatalogRecord[]>) {
    this.records = records;
  }

  get size(): number {
    return DETAIL_COLLECTIONS.reduce((sum, name) => sum + (this.records.get(name)?.length ?? 0), 0);
  }

  /** The operation's request bodies or responses, in document order. */
  ofOperation(name: 'requests' | 'responses', operationId: string): CatalogRecord[] {
    let grouped = this.#byOperation.get(name);
    if (!grouped) {
      grouped = new Map();
      for (const record of this.records.get(name) ?? []) {
        const owner = record['operationId'];
        if (typeof owner !== 'string') continue;
        const list = grouped.get(owner);
        if (list) list.push(record);
        else grouped.set(owner, [record]);
      }
      this.#byOperation.set(name, grouped);
    }
    return [...grouped.get(operationId) ?? []];
  }

  /** The version's component schemas (Resources) by name. */
  get components(): Map<string, unknown> {
    this.#components ??= new Map((this.records.get('resources') ?? []).filter((record) => typeof record['name'] === 'string').map((record) => [String(record['name']), record['schema']]));
    return this.#components;
  }
}

interface Kept { revision: Revision; details: VersionDetails }

/** The details of this process's versions, each kept while its collections' tokens are unchanged. */
export class DetailRecords {
  readonly #stores: ReadonlyMap<string, RecordStore>;
  readonly #revisions: Revisions;
  readonly #kept: LRUCache<string, Kept>;
  /** Reads under way, so that concurrent pages of one revision read once. */
  readonly #reading = new Map<string, { revision: string; details: Promise<VersionDetails> }>();
  /** Details made, by what was read: every record, the records written, or the collections written. */
  readonly built = { whole: 0, patched: 0, reread: 0, handed: 0 };

  constructor(stores: ReadonlyMap<string, RecordStore>, options: { revisions?: Revisions; maxRecords?: number } = {}) {
    this.#stores = stores;
    this.#revisions = options.revisions ?? new Revisions(stores.get('requests')!.db);
    this.#kept = new LRUCache({ maxSize: options.maxRecords ?? MAX_DETAIL_RECORDS, sizeCalculation: (kept) => Math.max(1, kept.details.size) });
  }

  /** The version's details as of now: kept, or read (a deleted version has none). */
  async of(versionId: string): Promise<VersionDetails> {
    // The revision first, the records after: a write in between leaves newer tokens than the
    // ones kept, so the next call reads again.
    const revision = await this.#revisions.of(versionId);
    if (revision === null) {
      this.#kept.delete(versionId);
      return new VersionDetails(new Map());
    }
    const kept = this.#kept.get(versionId);
    if (kept && DETAIL_COLLECTIONS.every((name) => (kept.revision.collections[name] ?? '') === (revision.collections[name] ?? ''))) {
      // Writes to other collections only: the details hold; kept under the newer revision so
      // that a later patch starts from it.
      if (kept.revision.version !== revision.version) this.#kept.set(versionId, { revision, details: kept.details });
      return kept.details;
    }
    const reading = this.#reading.get(versionId);
    if (reading?.revision === revision.version) return reading.details;
    const details = this.#read(versionId, revision, kept);
    this.#reading.set(versionId, { revision: revision.version, details });
    return details;
  }

  /**
   * An import's records, as it wrote them under one revision: applied to the details kept at the
   * revision listed right before it (or to none, the version created empty), so the next page
   * reads nothing; otherwise left to the next page's read. Never throws.
   */
  async imported(versionId: string, written: HeldWrite | undefined): Promise<void> {
    if (!written || !written.collections.some((name) => (DETAIL_COLLECTIONS as readonly string[]).includes(name))) return;
    try {
      const before = listedBefore(await this.#revisions.changes(versionId), written.token);
      const kept = this.#kept.get(versionId);
      const base = !before ? undefined
        : kept?.revision.version === before.token ? kept
          : before.empty ? { revision: { version: before.token, collections: {} }, details: new VersionDetails(new Map()) }
            : undefined;
      // A page reading meanwhile keeps what it read (a newer revision or the same records).
      if (!base || this.#reading.has(versionId)) return;
      const records = new Map(base.details.records);
      for (const name of DETAIL_COLLECTIONS) {
        const stored = written.records.get(name) ?? [];
        const gone = new Set([...stored.map((record) => record.id), ...written.deleted.get(name) ?? []]);
        if (gone.size === 0) continue;
        records.set(name, [...(records.get(name) ?? []).filter((record) => !gone.has(record.id)), ...stored].sort(inDocumentOrder));
      }
      this.built.handed += 1;
      this.#kept.set(versionId, { revision: revisionAfter(base.revision, written.token, written.collections), details: new VersionDetails(records) });
    } catch {
      // The next page reads the version as before.
    }
  }

  async #read(versionId: string, revision: Revision, kept: Kept | undefined): Promise<VersionDetails> {
    try {
      const details = await this.#fresh(versionId, revision, kept);
      // A read of an older revision that ends after a newer one started is not kept.
      if (this.#reading.get(versionId)?.revision === revision.version) this.#kept.set(versionId, { revision, details });
      return details;
    } finally {
      if (this.#reading.get(versionId)?.revision === revision.version) this.#reading.delete(versionId);
    }
  }

  async #fresh(versionId: string, revision: Revision, kept: Kept | undefined): Promise<VersionDetails> {
    const sorted = async (name: DetailName) => [...await this.#stores.get(name)!.all(versionId)].sort(inDocumentOrder);
    if (!kept) {
      this.built.whole += 1;
      return new VersionDetails(new Map(await Promise.all(DETAIL_COLLECTIONS.map(async (name) => [name, await sorted(name)] as const))));
    }
    const changed = DETAIL_COLLECTIONS.filter((name) => (revision.collections[name] ?? '') !== (kept.revision.collections[name] ?? ''));
    const written = writtenBetween(await this.#revisions.changes(versionId), kept.revision, revision, changed);
    const records = new Map(kept.details.records);
    if (written) {
      this.built.patched += 1;
      await Promise.all([...written].map(async ([name, ids]) => {
        const reread = await this.#stores.get(name)!.withIds(versionId, [...ids]);
        const others = (records.get(name as DetailName) ?? []).filter((record) => !ids.has(record.id));
        records.set(name as DetailName, [...others, ...reread].sort(inDocumentOrder));
      }));
    } else {
      this.built.reread += 1;
      await Promise.all(changed.map(async (name) => records.set(name, await sorted(name))));
    }
    return new VersionDetails(records);
  }
}

const processDetails = new WeakMap<ReadonlyMap<string, RecordStore>, DetailRecords>();

/** The details kept for these stores (one set per runtime: the stores of one database). */
export function detailRecordsOf(stores: ReadonlyMap<string, RecordStore>): DetailRecords {
  let details = processDetails.get(stores);
  if (!details) {
    details = new DetailRecords(stores);
    processDetails.set(stores, details);
  }
  return details;
}
