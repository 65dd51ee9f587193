// The stored lint reports: one document per (version, service) in `lintReports`, holding the
// last findings and, while a lint is owed, a durable pending marker (`pending`, `requestedAt`)
// that a restart picks up (lints.ts resume). Layout in docs/storage.md.
import { createHash } from 'node:crypto';
import type { Collection, Db } from 'mongodb';
import { documentId } from '../store/records.ts';
import type { VersionCompanion } from '../store/version-records.ts';
import type { Counts, Finding } from './findings.ts';

export const LINT_REPORTS = 'lintReports';
/** Copied and purged with its version, as records are (`id` is the service's): a copy holds the same descriptions, so the same findings. */
export const LINT_REPORTS_COMPANION: VersionCompanion = { name: LINT_REPORTS, copied: true };

export interface LintReport {
  versionId: string;
  serviceId: string;
  projectId: string;
  /** A lint is owed: requested at `requestedAt` and not yet stored since. */
  pending: boolean;
  requestedAt: Date;
  /** The rest is the last lint stored, absent before the first. */
  rulesets?: string[];
  /** The revision of the project's lint settings it used (0: the defaults). */
  settingsRevision?: number;
  findings?: Finding[];
  counts?: Counts;
  /** The Service record's updatedAt and the SHA-256 of the exported description linted. */
  serviceUpdatedAt?: string;
  descriptionHash?: string;
  computedAt?: Date;
  durationMs?: number;
  /** The last lint was stopped at its bound (LINT_TIMEOUT_MS) after this long: no findings are known. */
  timedOutAfterMs?: number;
}

type Stored = LintReport & { _id: string; id: string };

/** A report's `descriptionHash`: of the exported description as linted. */
export function descriptionHashOf(document: unknown): string {
  return createHash('sha256').update(JSON.stringify(document)).digest('hex');
}

/** The report's last lint saw this description under these settings: its findings, or its stop at the bound, hold for it. */
export function sawAlready(report: LintReport | undefined, descriptionHash: string, settingsRevision: number): report is LintReport {
  return report !== undefined && report.descriptionHash === descriptionHash && report.settingsRevision === settingsRevision
    && (report.findings !== undefined || report.timedOutAfterMs !== undefined);
}

export class LintReports {
  readonly #reports: Collection<Stored>;

  constructor(db: Db) {
    this.#reports = db.collection<Stored>(LINT_REPORTS);
  }

  async createIndexes(): Promise<void> {
    await this.#reports.createIndex({ versionId: 1, id: 1 }, { unique: true });
    await this.#reports.createIndex({ pending: 1 });
    await this.#reports.createIndex({ projectId: 1 });
  }

  /** Marks a lint owed, durably, and answers its request time (a later request supersedes it). */
  async markPending(projectId: string, versionId: string, serviceId: string): Promise<Date> {
    const requestedAt = new Date();
    await this.#reports.updateOne({ _id: idOf(versionId, serviceId) }, { $set: { versionId, id: serviceId, serviceId, projectId, pending: true, requestedAt } }, { upsert: true });
    return requestedAt;
  }

  async of(versionId: string, serviceId: string): Promise<LintReport | undefined> {
    const stored = await this.#reports.findOne({ _id: idOf(versionId, serviceId) });
    if (!stored) return undefined;
    const { _id, id, ...report } = stored;
    return report;
  }

  pendingOnes(): Promise<Pick<LintReport, 'projectId' | 'versionId' | 'serviceId'>[]> {
    return this.#reports.find({ pending: true }, { projection: { _id: 0, projectId: 1, versionId: 1, serviceId: 1 } }).toArray();
  }

  /** The services of the project's reports (to lint again when its settings change). */
  ofProject(projectId: string): Promise<Pick<LintReport, 'projectId' | 'versionId' | 'serviceId'>[]> {
    return this.#reports.find({ projectId }, { projection: { _id: 0, projectId: 1, versionId: 1, serviceId: 1 } }).toArray();
  }

  /** Stores a lint; it settles the pending marker only if no request came after `requestedAt`. */
  async store(report: Required<Omit<LintReport, 'pending' | 'timedOutAfterMs'>>): Promise<void> {
    const { versionId, serviceId, requestedAt, ...rest } = report;
    await this.#settle(versionId, serviceId, requestedAt, { $set: rest, $unset: { timedOutAfterMs: '' } });
  }

  /** Stores that the lint was stopped at its bound: the findings of an earlier lint go, since they are not the description's. */
  async storeTimedOut(report: Pick<LintReport, 'versionId' | 'serviceId' | 'requestedAt' | 'settingsRevision' | 'descriptionHash' | 'serviceUpdatedAt'> & { afterMs: number }): Promise<void> {
    const { versionId, serviceId, requestedAt, afterMs, ...rest } = report;
    const $set = { ...rest, timedOutAfterMs: afterMs, computedAt: new Date(), durationMs: afterMs };
    await this.#settle(versionId, serviceId, requestedAt, { $set, $unset: { findings: '', counts: '', rulesets: '' } });
  }

  async #settle(versionId: string, serviceId: string, requestedAt: Date, update: { $set: Record<string, unknown>; $unset: Record<string, ''> }): Promise<void> {
    const _id = idOf(versionId, serviceId);
    const settled = await this.#reports.updateOne({ _id, requestedAt }, { ...update, $set: { ...update.$set, pending: false } });
    if (settled.matchedCount === 0) await this.#reports.updateOne({ _id }, update);
  }

  async forget(versionId: string, serviceId: string): Promise<void> {
    await this.#reports.deleteOne({ _id: idOf(versionId, serviceId) });
  }
}

const idOf = documentId;
