// The change events the other rooms' writes record (events/), wired here as rooms.ts wires the
// rooms' other loans: an import's (service imported or changed, with its changes report's
// counts; lifecycle changed), a record write's (records changed; a Service's lifecycle set over
// the interface), a version's made, copied or deleted, and a service's lint counts or score
// changed (wired in boot.ts, where the linter and the scorer are made). Each is recorded through
// ChangeEvents with what shows its write committed (events/commits.ts).
import { ulid } from 'ulid';
import type { ChangeReport } from './changes/catalog.ts';
import { reviewImport } from './changes/imports.ts';
import type { ImportEvents } from './descriptions/routes.ts';
import type { ImportPlan } from './descriptions/sync.ts';
import type { StoringReport } from './lint/lints.ts';
import { LINT_REPORTS } from './lint/reports.ts';
import { SEVERITIES } from './lint/settings.ts';
import type { StoringCard } from './scores/scorer.ts';
import { keyOf as scoreKey, SCORES_COLLECTION } from './scores/store.ts';
import type { ChangeEvents, PendingEvents } from './events/change-events.ts';
import type { CommitCheck } from './events/commits.ts';
import type { Change, EventType } from './events/events.ts';
import { SERVICES } from './ownership/service-records.ts';
import type { AroundRecordWrite } from './records/routes.ts';
import type { ResolvedVersion } from './routes/route.ts';
import { outsideBudget } from './store/budget.ts';
import { documentId, type CatalogRecord } from './store/records.ts';
import type { AroundVersionWrite } from './versions/operations.ts';

/** Changes of a report listed in an event at most; the counts are whole. */
const LISTED = 100;
const LIFECYCLE = 'lifecycle';
const IMPORT_TYPES: EventType[] = ['catalog.service.imported', 'catalog.service.changed', 'catalog.service.lifecycle_changed'];

const servicePath = (versionId: string, serviceId: string) => `/v2/catalog/versions/${versionId}/services/${serviceId}`;

/**
 * The import's events, when any subscription of the project wants one. Their counts come from
 * the changes report of the import's plan: the gate's when it made one; else it is made behind
 * the answer (on Stripe's description it took longer than the import itself), the events held
 * pending meanwhile, so the import is not slower for being listened to. An instance that stops
 * first leaves them to the worker, which sends them without counts (`null`).
 */
export function importEvents(events: ChangeEvents, log: (message: string, fields?: Record<string, unknown>) => void): (version: ResolvedVersion) => Promise<ImportEvents | undefined> {
  return async (version) => {
    if (!(await events.wanted(version.projectId, IMPORT_TYPES))) return undefined;
    let pending: PendingEvents | undefined;
    let later: ImportPlan | undefined;
    return {
      async beforeWrite(plan, report) {
        const token = ulid();
        if (report === undefined) later = plan;
        pending = await events.pending(importChanges(version, plan, report as ChangeReport | undefined), { kind: 'revision', versionId: version.versionId, token }, { held: report === undefined });
        return token;
      },
      async after() {
        if (!pending || !later) return pending?.settle();
        const [plan, recorded] = [later, pending];
        // Behind the import's answer: outside its budget.
        void outsideBudget(() => counted(plan).then(
          (report) => recorded.complete(importChanges(version, plan, report)),
          (error: unknown) => {
            log('change events: the changes report of an import failed; its events go without counts', { err: error, versionId: version.versionId });
            return recorded.complete(importChanges(version, plan, undefined));
          },
        ).catch((error: unknown) => log('change events: completing an import\'s events failed; the worker settles them', { err: error })));
      },
    };
  };
}

async function counted(plan: ImportPlan): Promise<ChangeReport | undefined> {
  const review = reviewImport({ failOnBreaking: false });
  await review.review(plan);
  return review.report;
}

function importChanges(version: ResolvedVersion, plan: ImportPlan, report: ChangeReport | undefined): Change[] {
  const before = plan.existing.get(SERVICES)?.[0];
  const after = plan.inserts.get(SERVICES)?.[0] ?? plan.replaces.get(SERVICES)?.[0];
  const slug = String((after ?? before)?.['slug'] ?? '');
  const service = { id: plan.serviceId, slug };
  const base = { projectId: version.projectId, versionId: version.versionId, subject: plan.serviceId, service };
  const changes: Change[] = [{
    ...base, type: before ? 'catalog.service.changed' : 'catalog.service.imported',
    data: {
      // null: the report could not be made (the instance stopped first).
      service, breaking: report?.summary.breaking ?? null, nonBreaking: report?.summary.nonBreaking ?? null,
      changes: report ? report.changes.slice(0, LISTED) : null, truncated: (report?.changes.length ?? 0) > LISTED,
      links: { service: servicePath(version.versionId, plan.serviceId), openapi: `${servicePath(version.versionId, plan.serviceId)}/openapi` },
    },
  }];
  const lifecycle = lifecycleChange(before, after);
  if (lifecycle) changes.push({ ...base, type: 'catalog.service.lifecycle_changed', data: { service, ...lifecycle, links: { service: servicePath(version.versionId, plan.serviceId) } } });
  return changes;
}

/** `lifecycle` before and after, when a write changes it (a new Service's first one is no change). */
function lifecycleChange(before: Readonly<Record<string, unknown>> | undefined, after: Readonly<Record<string, unknown>> | undefined): { from: unknown; to: unknown } | undefined {
  if (!before || !after || !(LIFECYCLE in after)) return undefined;
  const from = before[LIFECYCLE] ?? null;
  const to = after[LIFECYCLE] ?? null;
  return from === to ? undefined : { from, to };
}

/** Records changed over the interface (and a Service's lifecycle set there). */
export function recordEvents(events: ChangeEvents): AroundRecordWrite {
  return async (write, run) => {
    const { collection, action, version, id, body, store } = write;
    const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    const serviceId = collection === SERVICES ? id : typeof fields['serviceId'] === 'string' ? fields['serviceId'] : undefined;
    const base = { projectId: version.projectId, versionId: version.versionId, ...(serviceId !== undefined && { service: { id: serviceId } }) };
    const changes: Change[] = [{
      ...base, type: 'catalog.records.changed', subject: `${collection}/${id}`,
      data: { collection, id, action, links: { record: `/v2/catalog/versions/${version.versionId}/${collection}/${id}` } },
    }];
    if (collection === SERVICES && (action === 'replace' || action === 'update') && LIFECYCLE in fields) {
      const stored: CatalogRecord | null = await store.get(version.versionId, id);
      const lifecycle = stored ? lifecycleChange(stored, fields) : undefined;
      if (lifecycle) changes.push({ ...base, type: 'catalog.service.lifecycle_changed', subject: id, data: { service: { id, slug: stored?.['slug'] }, ...lifecycle } });
    }
    const check = { kind: 'record', collection, versionId: version.versionId, id, gone: action === 'delete', since: new Date().toISOString() } as const;
    return events.around(changes, check, run);
  };
}

/** Versions made, copied and deleted. */
export function versionEvents(events: ChangeEvents): AroundVersionWrite {
  return (write, run) => {
    const address = `${write.type}/${write.slug}`;
    const data = { type: write.type, slug: write.slug, ...(write.copiedFrom && { copiedFrom: write.copiedFrom }), links: { version: `/v2/catalog/projects/${write.projectId}/${address}` } };
    const change: Change = {
      type: `catalog.version.${write.kind}`, projectId: write.projectId, subject: write.versionId ?? address,
      ...(write.versionId !== undefined && { versionId: write.versionId }), data,
    };
    const check = write.kind === 'deleted'
      ? { kind: 'version-gone', versionId: write.versionId! } as const
      : { kind: 'version-made', projectId: write.projectId, type: write.type, slug: write.slug, since: new Date().toISOString() } as const;
    return events.around([change], check, run);
  };
}

/** A governance result of a service changed (its lint findings, its score): what the room that computes them records. */
export interface GovernanceChange {
  type: 'catalog.service.lint_changed' | 'catalog.service.score_changed';
  version: { projectId: string; versionId: string };
  service: { id: string; slug?: string };
  /** What subscribers read: the new findings' counts or score, and links to them. */
  data: Readonly<Record<string, unknown>>;
}

/**
 * The entry point for lint and score changes: runs `write` with the change recorded, `check`
 * saying what shows the write committed.
 */
export function governanceEvents(events: ChangeEvents): <T>(change: GovernanceChange, check: CommitCheck, write: () => Promise<T>) => Promise<T> {
  return (change, check, write) => events.around([{
    type: change.type, projectId: change.version.projectId, versionId: change.version.versionId, subject: change.service.id, service: change.service,
    data: { service: change.service, ...change.data },
  }], check, write);
}

const governanceLinks = (versionId: string, serviceId: string) => ({
  lint: `${servicePath(versionId, serviceId)}/lint`, score: `${servicePath(versionId, serviceId)}/score`,
});

/** A lint report whose counts per severity differ from the last one's (or the service's first) is a `lint_changed`, recorded with its write. */
export function lintEvents(events: ChangeEvents): StoringReport {
  const record = governanceEvents(events);
  return async ({ projectId, versionId, serviceId, slug, before, after }, store) => {
    if (before && SEVERITIES.every((severity) => before[severity] === after[severity])) return store();
    const service = { id: serviceId, ...(slug !== undefined && { slug }) };
    const check = { kind: 'document', collection: LINT_REPORTS, id: documentId(versionId, serviceId), field: 'computedAt', since: new Date().toISOString() } as const;
    await record({ type: 'catalog.service.lint_changed', version: { projectId, versionId }, service, data: { counts: { before: before ?? null, after }, links: governanceLinks(versionId, serviceId) } }, check, store);
  };
}

/** A score card whose score differs from the last one's (or the service's first) is a `score_changed`, recorded with its write; `projectOf` names the version's project. */
export function scoreEvents(events: ChangeEvents, projectOf: (versionId: string) => Promise<string | undefined>): StoringCard {
  const record = governanceEvents(events);
  return async ({ versionId, serviceId, slug, before, after }, store) => {
    const projectId = before === after ? undefined : await projectOf(versionId);
    if (projectId === undefined) return store();
    const service = { id: serviceId, ...(slug !== undefined && { slug }) };
    const check = { kind: 'document', collection: SCORES_COLLECTION, id: scoreKey(versionId, serviceId), field: 'computedAt', since: new Date().toISOString() } as const;
    await record({ type: 'catalog.service.score_changed', version: { projectId, versionId }, service, data: { score: { before: before ?? null, after }, links: governanceLinks(versionId, serviceId) } }, check, store);
  };
}
