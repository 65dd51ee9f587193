// Makes score cards again when what they read changes, never on a read: a service's records
// written (an import, a record write: its own card first, then the version's others', whose
// probes now meet its operations), a lint report stored. The change is marked in the
// `scores` collection first (store.ts), so a restart resumes what was left; the cards are then
// made one at a time in the process, behind the writes' answers, with the probes ranked by the
// version's search index as users' searches are (after the operations' vectors are had).
import type { CatalogRecord, HeldWrite, RecordStore } from '../store/records.ts';
import type { SearchIndexes } from '../search/indexes.ts';
import { outsideBudget } from '../store/budget.ts';
import { markOf } from '../store/mark.ts';
import type { VersionIndex } from '../search/ranking.ts';
import { scoreCard } from './card.ts';
import { askProbes, probedOperations, probesOf, type Asked } from './findability.ts';
import { storedServiceRecords } from './records.ts';
import type { ScoreStore } from './store.ts';
import type { LintFinding } from './subscores.ts';

/** The lint room's reader of a service's findings; undefined: no report yet. */
export type LintFindings = (versionId: string, serviceId: string) => Promise<readonly LintFinding[] | undefined>;

/** A card about to be stored, with the score of the one before (undefined: its first); `store` stores it, and whoever is told (the change events) runs it. */
export type StoringCard = (card: { versionId: string; serviceId: string; slug?: string; before: number | undefined; after: number }, store: () => Promise<void>) => Promise<void>;

export interface ScorerParts {
  store: ScoreStore;
  stores: ReadonlyMap<string, RecordStore>;
  searchIndexes: SearchIndexes;
  lintFindings?: LintFindings;
  storing?: StoringCard;
  /** SCORES=off: no card is marked or made behind the writes, and a dry run scores nothing (the import's minScore gate still scores). */
  enabled?: boolean;
  log?: (message: string, fields?: Record<string, unknown>) => void;
}

/** Collections whose records belong to one service through their owner fields. */
const OWNED = new Set(['services', 'paths', 'operations', 'parameters', 'requests', 'responses', 'servers', 'security-schemes']);

export class Scorer {
  readonly #parts: ScorerParts;
  /** The cards to make; `findings`: those of the lint just stored, as read back (a queued write's card reads them). */
  readonly #queue = new Map<string, { versionId: string; serviceId: string; findings?: readonly LintFinding[] }>();
  #draining: Promise<void> | undefined;
  readonly #stopping = new AbortController();
  /** Cards made by this process (the tests count them: none on a read). */
  made = 0;
  /** Of the cards made, those that asked no probe: made again on the index of the one before (after a lint). */
  reusedProbes = 0;
  /**
   * Each service's last probes and the index they were asked of. A card made again on the same
   * index, with the same probes and ranking (its lint stored: only the security subscore moves),
   * asks none of them again: GitHub's 1,200 probes are most of its 11–12 s card. The index is
   * held weakly, so a newer revision lets the old one go.
   */
  readonly #lastProbes = new Map<string, { index: WeakRef<VersionIndex>; hybrid: boolean; texts: string; asked: Map<string, Asked[]> }>();
  lintFindings: LintFindings | undefined;

  get store(): ScoreStore {
    return this.#parts.store;
  }

  /** Whether the catalog scores (SCORES). */
  get enabled(): boolean {
    return this.#parts.enabled !== false;
  }

  constructor(parts: ScorerParts) {
    this.#parts = parts;
    this.lintFindings = parts.lintFindings;
  }

  /**
   * Something the service's card reads changed: marked, then made again behind. `findings`: its
   * lint's, just stored (GitHub's report is 57,000 findings, a second to read back).
   */
  async recompute(versionId: string, serviceId: string, findings?: readonly LintFinding[]): Promise<void> {
    if (this.#parts.enabled === false) return;
    await this.#parts.store.mark(versionId, serviceId);
    this.#enqueue(versionId, serviceId, findings);
  }

  /**
   * An import wrote: each service it wrote records of (its own, by the import's mark) is scored
   * again first, then the version's other services (see #version).
   */
  async imported(versionId: string, written: HeldWrite): Promise<void> {
    if (this.#parts.enabled === false) return;
    const services = new Set<string>();
    for (const [collection, records] of written.records) {
      for (const record of records) {
        const service = collection === 'services' ? record.id : markOf(record)?.service;
        if (typeof service === 'string') services.add(service);
      }
    }
    for (const service of services) await this.recompute(versionId, service);
    if (services.size > 0 || written.deleted.size > 0) await this.#version(versionId, services);
  }

  /** A record was written (created, replaced, updated): its service's card is made again first, then the version's others'; a write whose service cannot be told marks them all. */
  async written(collection: string, versionId: string, record: CatalogRecord | undefined): Promise<void> {
    if (this.#parts.enabled === false) return;
    const serviceId = record && OWNED.has(collection) ? await this.#serviceOf(collection, versionId, record) : undefined;
    if (serviceId) await this.recompute(versionId, serviceId);
    await this.#version(versionId, new Set(serviceId ? [serviceId] : []));
  }

  /** A record was deleted: a service's card goes with it; the version's other cards are made again. */
  async deleted(collection: string, versionId: string, id: string): Promise<void> {
    if (collection === 'services') {
      await this.#parts.store.forget(versionId, id);
      this.#lastProbes.delete(`${versionId}:${id}`);
    }
    await this.#version(versionId);
  }

  /** The cards a restart (or a failure) left pending, queued again. */
  async resume(): Promise<number> {
    if (this.#parts.enabled === false) return 0;
    const pending = await this.#parts.store.pending();
    for (const { versionId, serviceId } of pending) this.#enqueue(versionId, serviceId);
    return pending.length;
  }

  /** Once every queued card is made (the tests and the benchmark wait for it). */
  async settled(): Promise<void> {
    while (this.#draining) await this.#draining;
  }

  /** Stops, the card under way abandoned at its next probe batch; what is left stays marked for the next start. */
  async close(): Promise<void> {
    this.#stopping.abort(new Error('the scorer is stopping'));
    this.#queue.clear();
    await this.settled();
  }

  /**
   * Every card of the version but those of `done` (marked already) is made again: findability
   * asks each service's probes across the whole version, so a write to one service moves the
   * others' ranks (its operations may now come first for their probes, or no longer do). Queued
   * behind the written service's own, one card per service however many writes come.
   */
  async #version(versionId: string, done: ReadonlySet<string> = new Set()): Promise<void> {
    if (this.#parts.enabled === false) return;
    for (const serviceId of await this.#parts.store.markVersion(versionId, done)) this.#enqueue(versionId, serviceId);
  }

  async #serviceOf(collection: string, versionId: string, record: CatalogRecord): Promise<string | undefined> {
    if (collection === 'services') return record.id;
    const marked = markOf(record)?.service;
    if (typeof marked === 'string') return marked;
    const one = async (name: string, id: unknown) => (typeof id === 'string' ? (await this.#parts.stores.get(name)!.withIds(versionId, [id]))[0] : undefined);
    if (typeof record['serviceId'] === 'string') return record['serviceId'];
    const operation = typeof record['operationId'] === 'string' && collection !== 'operations' ? await one('operations', record['operationId']) : collection === 'operations' ? record : undefined;
    const path = await one('paths', operation ? operation['pathId'] : record['pathId']);
    return typeof path?.['serviceId'] === 'string' ? path['serviceId'] : undefined;
  }

  /** The service's probes as asked of `index`: the last card's when it asked them of this index, with the same texts and ranking. */
  async #probesOf(key: string, index: VersionIndex, operations: readonly CatalogRecord[], embed: ((texts: readonly string[]) => Promise<Float32Array[]>) | undefined): Promise<Map<string, Asked[]>> {
    const probed = probedOperations(operations);
    const hybrid = embed !== undefined && index.vectors?.complete === true;
    const texts = JSON.stringify(probed.map((operation) => [operation.id, probesOf(operation).map((probe) => probe.text)]));
    const last = this.#lastProbes.get(key);
    if (last && last.index.deref() === index && last.hybrid === hybrid && last.texts === texts) {
      this.reusedProbes += 1;
      return last.asked;
    }
    const asked = await askProbes(index, probed, embed, this.#stopping.signal);
    // Probes asked of an index that is gone (a newer revision's replaced it) are never reused.
    for (const [other, { index: held }] of this.#lastProbes) if (held.deref() === undefined) this.#lastProbes.delete(other);
    this.#lastProbes.set(key, { index: new WeakRef(index), hybrid, texts, asked });
    return asked;
  }

  #enqueue(versionId: string, serviceId: string, findings?: readonly LintFinding[]): void {
    if (this.#stopping.signal.aborted) return;
    this.#queue.set(`${versionId}:${serviceId}`, { versionId, serviceId, ...(findings && { findings }) });
    // Made behind the answer of the write that queued it, not within that request's budget.
    this.#draining ??= outsideBudget(() => this.#drain().finally(() => {
      this.#draining = undefined;
    }));
  }

  async #drain(): Promise<void> {
    while (this.#queue.size > 0) {
      const [key, next] = this.#queue.entries().next().value!;
      this.#queue.delete(key);
      try {
        await this.#make(next.versionId, next.serviceId, next.findings);
      } catch (error) {
        // Left marked: the next change or restart makes it again.
        if (!this.#stopping.signal.aborted) this.#parts.log?.('scores: a score card could not be made; it stays pending', { versionId: next.versionId, serviceId: next.serviceId, error: String(error) });
      }
    }
  }

  async #make(versionId: string, serviceId: string, lintFindings?: readonly LintFinding[]): Promise<void> {
    const { store, stores, searchIndexes } = this.#parts;
    const changes = await store.changesOf(versionId, serviceId);
    const records = await storedServiceRecords(stores, versionId, serviceId);
    if (!records) {
      await store.forget(versionId, serviceId);
      return;
    }
    // The operations' vectors first (an import's are embedded behind its answer), so the probes rank as searches do.
    const signal = this.#stopping.signal;
    await Promise.race([searchIndexes.vectors?.settled(), new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }))]);
    signal.throwIfAborted();
    const index = await searchIndexes.of(versionId);
    const model = searchIndexes.vectors?.model;
    const findings = lintFindings ?? await this.lintFindings?.(versionId, serviceId);
    const embed = model && ((texts: readonly string[]) => model.embed(texts.map((text) => model.recipe.queryPrefix + text)));
    const asked = await this.#probesOf(`${versionId}:${serviceId}`, index, records.operations, embed);
    const card = await scoreCard({ records, index, asked, ...(embed ? { embed } : {}), ...(findings ? { findings } : {}), signal: this.#stopping.signal });
    const before = await store.scoreOf(versionId, serviceId);
    const slug = records.service['slug'];
    const stored = () => store.store(versionId, serviceId, card, changes);
    const storing = this.#parts.storing;
    await (storing ? storing({ versionId, serviceId, ...(typeof slug === 'string' && { slug }), before, after: card.score }, stored) : stored());
    this.made += 1;
  }
}
