// The rooms of the service, each a feature that declares what it adds (routes/room.ts), in the
// order the OpenAPI document shows them. The app mounts their routes, routers and tools from
// this list, and the document is generated from it: adding a room is one line below. Where one
// room lends another a hand (the import's changes report, the import's records handed to the
// search index, a deleted service's parts), the wiring is here, so rooms never import each other
// sideways for it.
import type { Db } from 'mongodb';
import type { Authenticate, VerifyBearer } from './auth/authenticate.ts';
import type { Runtime } from './boot.ts';
import { changesRoom } from './changes/room.ts';
import { reviewImport } from './changes/imports.ts';
import { descriptionsRoom } from './descriptions/room.ts';
import type { ImportGate } from './descriptions/import-gate.ts';
import type { RateLimiter } from './http/rate-limit.ts';
import { insightsRoom } from './insights/room.ts';
import { integrityRoom } from './integrity/room.ts';
import { reviewLint } from './lint/gate.ts';
import { serviceOfRecord } from './lint/record-service.ts';
import { lintRoom } from './lint/room.ts';
import { lintAnswer } from './lint/routes.ts';
import { SERVICES } from './ownership/service-records.ts';
import { pagesRoom } from './pages/room.ts';
import type { VersionResolver } from './pipeline/resolve.ts';
import { recordsRoom } from './records/room.ts';
import type { Room } from './routes/room.ts';
import type { SchemaRegistry } from './schemas/registry.ts';
import { importScoring } from './scores/gate.ts';
import { ScoreNotes } from './scores/notes.ts';
import { scoresRoom } from './scores/room.ts';
import { scoreAnswer } from './scores/routes.ts';
import type { Scorer } from './scores/scorer.ts';
import { searchRoom } from './search/room.ts';
import type { RecordLimits } from './store/record-cost.ts';
import type { CatalogRecord, HeldWrite, RecordStore } from './store/records.ts';
import { versionsRoom } from './versions/room.ts';
import { eventsRoom } from './events/room.ts';
import { importEvents, recordEvents, versionEvents } from './room-events.ts';

/**
 * What the rooms are built from: every part of the runtime (boot.ts), so that a part added there
 * reaches the rooms with no other edit, and what the app adds for HTTP (app.ts).
 */
export type RoomParts = Omit<Runtime, 'close' | 'config' | 'database' | 'databaseServer'> & HttpParts;

/** What the app makes for the rooms: authentication, the version resolver, the import gate, and the settings they read. */
export interface HttpParts {
  versions: VersionResolver;
  verify: VerifyBearer;
  /** The interface's bearer authentication, rate limited as it is. */
  authenticate: Authenticate;
  /** The one rate limit count of the app (what `authenticate` counts against). */
  limiter: RateLimiter;
  db: Db;
  recordLimits: RecordLimits;
  /** IMPORT_BODY_LIMIT: a traffic report may be as large as an API description. */
  importBodyLimit: number;
  importGate: ImportGate;
  dbTimeoutMs: number;
  jwtSecret: string;
  pageSessionMs: number;
  /** WEBHOOK_ALLOW_PRIVATE: subscriptions may name private addresses. */
  allowPrivateWebhooks: boolean;
  /** A warning to the log, for work a room does behind its answers. */
  warn: (message: string, fields?: Record<string, unknown>) => void;
}

export function rooms(parts: RoomParts): Room[] {
  // Made on first use: the declared rooms (the document) run nothing.
  let kept: ScoreNotes | undefined;
  const notes = { annotate: <T extends Record<string, unknown>>(versionId: string, hits: readonly T[]) => (kept ??= new ScoreNotes(parts.scorer.store)).annotate(versionId, hits) };
  return [
    // First: its `…/subscriptions/{id}` would otherwise be taken for a version's address (`…/{type}/{slug}`).
    eventsRoom({ schemas: parts.schemas, events: parts.events, allowPrivate: parts.allowPrivateWebhooks }),
    versionsRoom({ ...parts, manager: parts.versionManager, records: parts.versionRecords, around: versionEvents(parts.events) }),
    integrityRoom(parts),
    descriptionsRoom({
      ...parts, reviewImport,
      // A dry run scores only where the catalog scores (SCORES); the gate, whenever minScore asks.
      scoreImport: async (versionId, document, slug, minScore) => (minScore !== undefined || parts.scorer.enabled
        ? { ...await importScoring({ ...parts, scores: parts.scorer.store })(versionId, document, slug, minScore) } : undefined),
      // The import's records go to the version's search index, so that it does not read them back;
      // the service's score card is made again behind the answer.
      imported: async (versionId, written) => {
        await parts.searchIndexes.imported(versionId, written);
        await scoreImported(parts.scorer, versionId, written);
      },
      importEvents: importEvents(parts.events, parts.warn),
      // A service the import wrote owes a lint, run behind the answer.
      described: (projectId, versionId, serviceId) => parts.lints.request(projectId, versionId, serviceId),
      // A dry run lints only where the catalog lints (LINT); the gate, whenever it is asked for.
      reviewLint: (options) => (options.failOnLintError || parts.lints.enabled ? reviewLint(parts.lints, options) : undefined),
    }),
    searchRoom({ ...parts, annotate: (versionId, hits) => notes.annotate(versionId, hits) }),
    changesRoom(parts),
    insightsRoom({ ...parts, reportLimit: parts.importBodyLimit }),
    pagesRoom({
      ...parts, sessionMs: parts.pageSessionMs,
      lintOf: async (versionId, service) => lintAnswer(service, await parts.lints.findingsOf(versionId, service.id)),
      scoreCard: (versionId, service) => scoreAnswer(parts.scorer.store, versionId, service),
    }),
    lintRoom(parts),
    scoresRoom({ ...parts, scores: parts.scorer.store }),
    recordsRoom({
      ...parts,
      deleted: async (collection, version, record) => {
        await forgetServiceParts(parts)(collection, version.versionId, String(record['id']));
        // A record of a service gone changes the service's description: its lint is owed, as after a write.
        if (collection !== SERVICES) await lintWritten(parts)(collection, version, record);
        await parts.scorer.deleted(collection, version.versionId, String(record['id']));
      },
      written: async (collection, version, record) => {
        await lintWritten(parts)(collection, version, record);
        await parts.scorer.written(collection, version.versionId, record as CatalogRecord);
      },
      around: recordEvents(parts.events),
    }),
  ];
}

/** The services an import wrote are scored again (the import's answer does not wait for the cards, only for their marks). */
async function scoreImported(scorer: Scorer, versionId: string, written: HeldWrite | undefined): Promise<void> {
  if (!written) return;
  await scorer.imported(versionId, written).catch(() => {});
}

/** A deleted Service record's parts (descriptions/service-parts.ts) and lint report go with it. */
function forgetServiceParts({ serviceParts, lints }: Pick<RoomParts, 'serviceParts' | 'lints'>): (collection: string, versionId: string, id: string) => Promise<void> {
  return async (collection, versionId, id) => {
    if (collection !== SERVICES) return;
    await serviceParts.forget(versionId, id);
    await lints.reports.forget(versionId, id);
  };
}

/** A record write that changes a service's description owes that service a lint. */
function lintWritten({ schemas, stores, lints }: RoomParts): (collection: string, version: { projectId: string; versionId: string }, record: Record<string, unknown>) => Promise<void> {
  return async (collection, { projectId, versionId }, record) => {
    // Finding the service reads its record (two for an operation's): not when nothing lints.
    if (!lints.enabled) return;
    const serviceId = await serviceOfRecord(schemas, stores, versionId, collection, record);
    if (serviceId !== undefined) await lints.request(projectId, versionId, serviceId);
  };
}

/**
 * The rooms built only to read what they declare (the document, `npm run openapi`): a part they
 * read while being declared is here; any other part, once run, throws.
 */
export function declaredRooms(schemas: SchemaRegistry): Room[] {
  const absentWith = (known: Record<string, unknown>) => new Proxy(known, {
    get: (target, name) => {
      if (typeof name === 'string' && name in target) return target[name];
      throw new Error(`declaration only: no ${String(name)} to run against`);
    },
  }) as never;
  const absent = absentWith({});
  // A store of each collection that knows its collection (a room reads its notFound) and runs nothing.
  const stores = new Map(schemas.collections.map((collection) => [collection.name, absentWith({ collection })]));
  const declared: Record<string, unknown> = { schemas, stores, scorer: absentWith({ store: absent }), importBodyLimit: 0, warn: () => {} };
  return rooms(new Proxy(declared, { get: (target, name) => (typeof name === 'string' && name in target ? target[name] : absent) }) as never);
}
