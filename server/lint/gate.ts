// The import's side of lint: the description an import would leave (its plan, exported as the
// catalog will hold it) linted with the project's settings before anything is written; the
// findings it adds and the ones it fixes against the stored report (a dry run's `lint`), and
// the `failOn=lint-error` gate that refuses an import leaving error findings (409, nothing written).
import { plannedSnapshot } from '../changes/catalog.ts';
import { exportService } from '../descriptions/export.ts';
import { shareRepeated } from '../descriptions/sharing.ts';
import type { ImportPlan } from '../descriptions/sync.ts';
import { Conflict } from '../errors.ts';
import type { JsonObject } from '../json/values.ts';
import { countsOf, type Counts, type Finding } from './findings.ts';
import { lintOffThread, LintTimedOut } from './linter.ts';
import type { Lints } from './lints.ts';
import { descriptionHashOf, sawAlready } from './reports.ts';

export interface LintDelta {
  /** The findings of the description as imported (none known when the lint timed out). */
  counts: Counts;
  /** The lint was stopped at LINT_TIMEOUT_MS after this long: nothing is known of the findings. */
  timedOutAfterMs?: number;
  /** The description is the one the stored lint saw, under the same settings: its answer is the stored one, not linted again. */
  unchanged?: true;
  /** Findings the import adds, and those it fixes, against the service's stored lint (all are new when there is none). */
  new: Finding[];
  fixed: Finding[];
}

export interface LintReview {
  review(plan: ImportPlan): Promise<void>;
  readonly delta: LintDelta | undefined;
}

export function reviewLint(lints: Lints, { projectId, versionId, failOnLintError }: { projectId: string; versionId: string; failOnLintError: boolean }): LintReview {
  let delta: LintDelta | undefined;
  return {
    async review(plan) {
      const planned = plannedSnapshot(plan);
      const service = (await planned.get('services')!.all(versionId)).find((record) => record.id === plan.serviceId);
      if (!service) return;
      const document = shareRepeated(await exportService(planned, versionId, service, plan.parts));
      const { revision, settings } = await lints.settings.current(projectId);
      const report = await lints.findingsOf(versionId, plan.serviceId);
      // Unchanged (a dry run or a push of what is stored): the stored answer holds, as it does for
      // the lints behind the writes, and a description whose lint takes minutes is not linted again.
      const seen = sawAlready(report, descriptionHashOf(document), revision);
      let findings: Finding[];
      try {
        if (seen && report.timedOutAfterMs !== undefined) throw new LintTimedOut(report.timedOutAfterMs);
        findings = seen ? report.findings! : await lintOffThread(document as JsonObject, settings, { timeoutMs: lints.timeoutMs, lane: 'request' });
      } catch (error) {
        if (!(error instanceof LintTimedOut)) throw error;
        if (failOnLintError) throw Conflict.lintTimedOut(error.afterMs);
        delta = { counts: countsOf([]), new: [], fixed: [], timedOutAfterMs: error.afterMs, ...(seen && { unchanged: true as const }) };
        return;
      }
      const stored = report?.findings ?? [];
      const [now, before] = [new Set(findings.map(keyOf)), new Set(stored.map(keyOf))];
      delta = {
        counts: countsOf(findings), new: findings.filter((finding) => !before.has(keyOf(finding))), fixed: stored.filter((finding) => !now.has(keyOf(finding))),
        ...(seen && { unchanged: true as const }),
      };
      const errors = findings.filter((finding) => finding.severity === 'error');
      if (failOnLintError && errors.length > 0) throw new Conflict(errors.map((finding) => ({ field: finding.path, message: `${finding.code}: ${finding.message}` })));
    },
    get delta() {
      return delta;
    },
  };
}

const keyOf = ({ code, path, message }: Finding): string => JSON.stringify([code, path, message]);
