// Counting one report: its calls matched to services and operations, summed per endpoint and
// added to the observations at once, then the services' lastReportAt and lastMentionAt. An
// Idempotency-Key is claimed first, so a retried report is counted once.
import type { CatalogRecord, RecordStore } from '../store/records.ts';
import { Matcher } from './match.ts';
import type { ObservationDelta, Observations, ReportAnswer } from './observations.ts';
import type { Call } from './reports.ts';
import { touchService } from './services.ts';
import { storeOf } from '../store/stores.ts';
import type { KindName } from '../schemas/kind-names.ts';
import { GOING_AWAY, LifecycleTally } from './lifecycle-calls.ts';

const NOT_FOUND = 404;

export interface IngestParts {
  stores: ReadonlyMap<string, RecordStore>;
  observations: Observations;
}

export interface Report {
  versionId: string;
  calls: readonly Call[];
  /** `?service=`, found by the caller: whose calls those with no (known) host are, and who made the client calls. */
  service?: CatalogRecord;
  idempotencyKey?: string;
}

export async function ingest(parts: IngestParts, report: Report, now = new Date()): Promise<ReportAnswer & { duplicate: boolean }> {
  const { versionId } = report;
  const read = (name: KindName) => storeOf(parts.stores, name).all(versionId);
  const [services, paths, operations, servers] = await Promise.all((['services', 'paths', 'operations', 'servers'] as const).map(read)) as CatalogRecord[][];
  // Only the going-away parameters, and only when some call says which it sent: a version's
  // parameters outnumber its operations (GitHub: reading them all doubled a report's time).
  const sentAny = report.calls.some((call) => (call.sent?.length ?? 0) > 0);
  const tally = new LifecycleTally(sentAny ? await storeOf(parts.stores, 'parameters').withAnyOf(versionId, GOING_AWAY) : []);
  const fallback = report.service;

  if (report.idempotencyKey !== undefined) {
    const earlier = await parts.observations.claim(versionId, report.idempotencyKey, now);
    // A retry while the first is still being counted: its calls are being counted once, by the first.
    // `shadow` and `grouped` first: an answer kept before reports counted them has none.
    if (earlier !== null) return { shadow: 0, grouped: { calls: 0, templates: 0 }, ...(earlier ?? { received: report.calls.length, matched: 0, unmatched: 0 }), duplicate: true };
  }
  try {
    const answer = await count(parts, report, new Matcher({ services: services!, paths: paths!, operations: operations!, servers: servers! }), fallback, now, tally);
    if (report.idempotencyKey !== undefined) await parts.observations.settle(versionId, report.idempotencyKey, answer);
    return { ...answer, duplicate: false };
  } catch (error) {
    if (report.idempotencyKey !== undefined) await parts.observations.release(versionId, report.idempotencyKey).catch(() => {});
    throw error;
  }
}

async function count(parts: IngestParts, report: Report, matcher: Matcher, fallback: CatalogRecord | undefined, now: Date, tally: LifecycleTally): Promise<ReportAnswer> {
  const deltas = new Map<string, ObservationDelta>();
  const reported = new Set<string>();
  const mentioned = new Set<string>();
  let matched = 0;
  let shadow = 0;
  let grouped = 0;
  const templates = new Set<string>();
  for (const call of report.calls) {
    const found = matcher.match(call, fallback);
    // A client's call mentions the service it reached, unless the caller is that service itself.
    if (call.client && found && found.service['slug'] !== call.caller) mentioned.add(found.service.id);
    if (!call.counts || !found) continue;
    reported.add(found.service.id);
    // An undocumented path answered 404 is a path nobody serves, not an endpoint: kept nowhere.
    if (!found.operation && call.status === NOT_FOUND) continue;
    if (found.operation) matched++;
    else shadow++;
    const time = call.time && call.time <= now ? call.time : now;
    if (found.operation) tally.note(call, found.service.id, found.operation, time);
    const key = `${found.service.id} ${call.method} ${found.path}`;
    if (found.grouped) {
      grouped++;
      templates.add(key);
    }
    const delta = deltas.get(key) ?? { serviceId: found.service.id, method: call.method, path: found.path, count: 0, statusCodes: {}, firstSeenAt: time, lastSeenAt: time };
    delta.count++;
    if (call.status !== undefined) delta.statusCodes[String(call.status)] = (delta.statusCodes[String(call.status)] ?? 0) + 1;
    if (time < delta.firstSeenAt) delta.firstSeenAt = time;
    if (time > delta.lastSeenAt) delta.lastSeenAt = time;
    deltas.set(key, delta);
  }
  await parts.observations.add(report.versionId, [...deltas.values()]);
  await parts.observations.addLifecycle(report.versionId, tally.deltas());
  const services = storeOf(parts.stores, 'services');
  for (const id of new Set([...reported, ...mentioned])) {
    await touchService(services, report.versionId, id, {
      ...(reported.has(id) && { lastReportAt: now.toISOString() }),
      ...(mentioned.has(id) && { lastMentionAt: now.toISOString() }),
    }, now);
  }
  const received = report.calls.filter((call) => call.counts).length;
  return { received, matched, shadow, unmatched: received - matched - shadow, grouped: { calls: grouped, templates: templates.size } };
}
