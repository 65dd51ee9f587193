// The import's side of changes: what importing a document would change for the clients of its
// service, seen in the import's own plan (so both sides are rendered by the same exporter), and
// the `failOn=breaking` gate that refuses such an import before it writes.
import { Conflict } from '../errors.ts';
import type { ImportPlan } from '../descriptions/sync.ts';
import { changesBetween, plannedSnapshot, snapshotFrom, type Change, type ChangeReport } from './catalog.ts';
import { scopedPlan } from './plan-scope.ts';

export interface ImportReview {
  /** For importDocument's `review` option. */
  review(plan: ImportPlan): Promise<void>;
  /** The changes the reviewed plan makes (after the import ran). */
  readonly report: ChangeReport | undefined;
}

export function reviewImport({ failOnBreaking }: { failOnBreaking: boolean }): ImportReview {
  let report: ChangeReport | undefined;
  return {
    async review(whole) {
      // Only the paths the plan touches, when nothing else changes (plan-scope.ts): the same report, without exporting the rest.
      const plan = scopedPlan(whole);
      report = await changesBetween(snapshotFrom(plan.kinds, plan.existing), plannedSnapshot(plan), plan.serviceId);
      const breaking = report.changes.filter((change) => change.level === 'breaking');
      if (failOnBreaking && breaking.length > 0) throw new Conflict(breaking.map(detailOf));
    },
    get report() {
      return report;
    },
  };
}

/** A breaking change as a detail of the refusal: where in the document (a JSON pointer) and what. */
function detailOf(change: Change): { field: string; message: string } {
  const field = change.operation
    ? `/paths/${change.operation.path.replaceAll('~', '~0').replaceAll('/', '~1')}/${change.operation.method.toLowerCase()}`
    : change.rule.startsWith('server') ? '/servers' : '/security';
  return { field, message: `${change.rule}: ${change.message}` };
}
