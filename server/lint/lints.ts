// When lints run: a service's lint is requested after a write that changes its description (an
// import, a record write), marked pending durably (reports.ts), and run behind the answer on
// the lint thread, one at a time in request order; pending ones left by a stopped process are
// taken up at start (resume). A read never lints: it answers the stored report and whether one
// is owed. A service whose description and settings are what the last lint saw is not linted again.
import type { Db } from 'mongodb';
import type { ServiceParts } from '../descriptions/service-parts.ts';
import { exportService } from '../descriptions/export.ts';
import { shareRepeated } from '../descriptions/sharing.ts';
import type { JsonObject } from '../json/values.ts';
import { outsideBudget } from '../store/budget.ts';
import type { RecordStore } from '../store/records.ts';
import { storeOf } from '../store/stores.ts';
import { serviceScoped } from '../views/service-records.ts';
import { countsOf, type Counts, type Finding } from './findings.ts';
import { lintOffThread, LintTimedOut, warmLane } from './linter.ts';
import { descriptionHashOf, LintReports, sawAlready, type LintReport } from './reports.ts';
import { LintSettingsStore } from './settings-store.ts';

type Key = { projectId: string; versionId: string; serviceId: string };
/** Called after a lint report is stored (the scores recompute from it), with its findings (none: stopped at its bound). */
export type Linted = (versionId: string, serviceId: string, findings?: readonly Finding[]) => Promise<void> | void;
/** A report about to be stored, with the counts of the one before (undefined: its first); `store` stores it, and whoever is told (the change events) runs it. */
export type StoringReport = (report: Key & { slug?: string; before: Counts | undefined; after: Counts }, store: () => Promise<void>) => Promise<void>;
type Log = (message: string, fields?: Record<string, unknown>) => void;

export class Lints {
  readonly reports: LintReports;
  readonly settings: LintSettingsStore;
  readonly #stores: ReadonlyMap<string, RecordStore>;
  readonly #log: Log;
  readonly #queue = new Map<string, Key>();
  /** LINT=off: no lint is owed or run (the gate and dry runs still lint what they are asked to). */
  readonly #enabled: boolean;
  #running: Promise<void> | undefined;
  linted: Linted | undefined;
  storing: StoringReport | undefined;

  /** What the import kept beside each Service record: part of the description linted. */
  readonly #serviceParts: ServiceParts;

  /** Set when the service stops (close). */
  #closed = false;

  /** LINT_TIMEOUT_MS: one lint's bound on the lint thread (linter.ts). */
  readonly timeoutMs: number;

  constructor(db: Db, stores: ReadonlyMap<string, RecordStore>, serviceParts: ServiceParts, { log, linted, storing, enabled = true, timeoutMs }: { log: Log; linted?: Linted; storing?: StoringReport; enabled?: boolean; timeoutMs: number }) {
    this.#enabled = enabled;
    this.timeoutMs = timeoutMs;
    this.#serviceParts = serviceParts;
    this.reports = new LintReports(db);
    this.settings = new LintSettingsStore(db);
    this.#stores = stores;
    this.#log = log;
    this.linted = linted;
    this.storing = storing;
  }

  /** False under LINT=off. */
  get enabled(): boolean {
    return this.#enabled;
  }

  async createIndexes(): Promise<void> {
    await this.reports.createIndexes();
    await this.settings.createIndexes();
  }

  /** Owes the service a lint (durably) and starts it behind the caller. */
  async request(projectId: string, versionId: string, serviceId: string): Promise<void> {
    if (!this.#enabled) return;
    await this.reports.markPending(projectId, versionId, serviceId);
    this.#enqueue({ projectId, versionId, serviceId });
  }

  /** Lints every service of the project again (its settings changed). */
  async relintProject(projectId: string): Promise<void> {
    for (const key of await this.reports.ofProject(projectId)) await this.request(key.projectId, key.versionId, key.serviceId);
  }

  /** Takes up the lints a stopped process left pending. */
  async resume(): Promise<number> {
    if (!this.#enabled) return 0;
    const pending = await this.reports.pendingOnes();
    for (const key of pending) this.#enqueue(key);
    return pending.length;
  }

  /** The stored report, never computed here. */
  findingsOf(versionId: string, serviceId: string): Promise<LintReport | undefined> {
    return this.reports.of(versionId, serviceId);
  }

  /**
   * The service stops: no further lint is taken up, and each one owed stays pending for the next
   * start (resume). The one running ends with the database's calls, and is not told as a failure:
   * a stop with many lints queued logged a warning for each.
   */
  close(): void {
    this.#closed = true;
    this.#queue.clear();
  }

  /** Resolves when no lint is queued or running (tests, benchmarks, a graceful stop). */
  async idle(): Promise<void> {
    while (this.#running) await this.#running;
  }

  #enqueue(key: Key): void {
    if (this.#closed) return;
    this.#queue.set(`${key.versionId}/${key.serviceId}`, key);
    warmLane('behind');
    // Run behind the answer of the write that owed it, not within that request's budget.
    this.#running ??= outsideBudget(() => this.#drain().finally(() => { this.#running = undefined; }));
  }

  async #drain(): Promise<void> {
    for (let next = this.#take(); next; next = this.#take()) {
      try {
        await this.#lint(next);
      } catch (error) {
        // Left pending: the next start (or the next request) tries again.
        if (!this.#closed) this.#log('lint failed', { versionId: next.versionId, serviceId: next.serviceId, error: (error as Error).message });
      }
    }
  }

  #take(): Key | undefined {
    const [first] = this.#queue;
    if (!first) return undefined;
    this.#queue.delete(first[0]);
    return first[1];
  }

  async #lint({ projectId, versionId, serviceId }: Key): Promise<void> {
    const before = await this.reports.of(versionId, serviceId);
    if (!before?.pending) return;
    const service = await storeOf(this.#stores, 'services').get(versionId, serviceId);
    if (!service) {
      await this.reports.forget(versionId, serviceId);
      return;
    }
    const document = shareRepeated(await exportService(serviceScoped(this.#stores, versionId, service), versionId, service, await this.#serviceParts.of(versionId, serviceId)));
    const descriptionHash = descriptionHashOf(document);
    const { revision, settings } = await this.settings.current(projectId);
    const seen = sawAlready(before, descriptionHash, revision);
    const unchanged = seen && before.findings !== undefined;
    // Stopped at the bound before, with nothing changed since: it would be stopped again.
    if (seen && before.timedOutAfterMs !== undefined) {
      await this.reports.storeTimedOut({ versionId, serviceId, requestedAt: before.requestedAt, descriptionHash, settingsRevision: revision, afterMs: before.timedOutAfterMs, serviceUpdatedAt: String(service['updatedAt']) });
      return;
    }
    const started = performance.now();
    let findings: Finding[];
    try {
      findings = unchanged ? before.findings! : await lintOffThread(document as JsonObject, settings, { timeoutMs: this.timeoutMs, lane: 'behind' });
    } catch (error) {
      if (!(error instanceof LintTimedOut)) throw error;
      // Stored, not left pending: a restart would only run it into the same bound again.
      this.#log('lint stopped at LINT_TIMEOUT_MS: no findings are known for the service', { versionId, serviceId, timeoutMs: this.timeoutMs });
      await this.reports.storeTimedOut({ versionId, serviceId, requestedAt: before.requestedAt, descriptionHash, settingsRevision: revision, afterMs: error.afterMs, serviceUpdatedAt: String(service['updatedAt']) });
      await this.linted?.(versionId, serviceId);
      return;
    }
    const counts = countsOf(findings);
    // computedAt is taken inside `store`, after whoever is told noted when the write began.
    const store = () => this.reports.store({
      projectId, versionId, serviceId, requestedAt: before.requestedAt, rulesets: [...settings.rulesets, ...settings.documents.map((each) => each.name)],
      settingsRevision: revision, findings, counts, serviceUpdatedAt: String(service['updatedAt']), descriptionHash,
      computedAt: unchanged ? before.computedAt! : new Date(), durationMs: unchanged ? before.durationMs! : Math.round(performance.now() - started),
    });
    const slug = typeof service['slug'] === 'string' ? service['slug'] : undefined;
    await (this.storing ? this.storing({ projectId, versionId, serviceId, ...(slug !== undefined && { slug }), before: before.counts, after: counts }, store) : store());
    await this.linted?.(versionId, serviceId, findings);
  }
}
