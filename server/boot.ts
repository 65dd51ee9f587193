// Opens everything the service stands on, for `npm start`, the admin CLI and the tests alike:
// the database (provisioned or given), the schemas, the stores and their indexes.
import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { withJwtSecret, type Config } from './config.ts';
import { checkKinds } from './descriptions/kinds.ts';
import { ownImportedSchemes } from './descriptions/scheme-owners.ts';
import { loadSchemaRegistry, SCHEMA_BASE, type SchemaRegistry } from './schemas/registry.ts';
import { connectDatabase, type Database } from './database/database.ts';
import { provisionDatabase, type DatabaseServer } from './database/provision.ts';
import { Scorer } from './scores/scorer.ts';
import { SCORES_COMPANION, ScoreStore } from './scores/store.ts';
import { SearchIndexes } from './search/indexes.ts';
import { loadSearchModel } from './search/model/source.ts';
import { SearchVectors } from './search/vectors.ts';
import { RecordStore } from './store/records.ts';
import { VersionRecords } from './store/version-records.ts';
import { INSIGHT_COMPANIONS, Observations } from './insights/observations.ts';
import { SERVICE_PARTS_COMPANION, ServiceParts } from './descriptions/service-parts.ts';
import { Tenancy } from './tenancy/tenancy.ts';
import { Lints } from './lint/lints.ts';
import { LINT_REPORTS_COMPANION } from './lint/reports.ts';
import { VersionManager } from './versions/manage.ts';
import { ChangeEvents } from './events/change-events.ts';
import { lintEvents, scoreEvents } from './room-events.ts';

export interface Runtime {
  config: Config & { jwtSecret: string };
  databaseServer: DatabaseServer;
  database: Database;
  schemas: SchemaRegistry;
  tenancy: Tenancy;
  /** One store per collection descriptor, by collection name. */
  stores: ReadonlyMap<string, RecordStore>;
  /** A whole version's records across collections (copy, purge, diff). */
  versionRecords: VersionRecords;
  /** What analyzers reported (server/insights/). */
  observations: Observations;
  /** Creates, copies and deletes versions; its sweeper is started by the service process only. */
  versionManager: VersionManager;
  /** This process's search index per version, kept fresh by the versions' revisions. */
  searchIndexes: SearchIndexes;
  /** The parts an import keeps beside each Service record (webhooks, shared components: descriptions/service-parts.ts). */
  serviceParts: ServiceParts;
  /** Change events: subscriptions, the outbox, and the delivery worker the service process starts (events/). */
  events: ChangeEvents;
  /** Each service's lint, owed, running and stored (server/lint/); pending ones are taken up by the service process only (resume). */
  lints: Lints;
  /** Makes the services' score cards again after writes, behind their answers (scores/scorer.ts). */
  scorer: Scorer;
  /** Ends the database calls in flight, closes the client, then stops the embedded server if this process started it. */
  close(): Promise<void>;
}

export async function openRuntime(config: Config, logger: Logger, schemas: SchemaRegistry = loadSchemaRegistry(config.schemasDir)): Promise<Runtime> {
  // Before the database: a mapping the schemas contradict stops the start-up (kinds.ts).
  const unmapped = checkKinds(schemas.collections);
  if (unmapped.length > 0) logger.warn({ kinds: unmapped }, `service-owned kinds with no OpenAPI mapping, left out of import and export: ${unmapped.join(', ')}`);
  const databaseServer = await provisionDatabase({
    uri: config.mongodbUri,
    dataDir: config.dataDir,
    port: config.embeddedPort,
    engine: config.embeddedEngine,
    cacheDir: config.cacheDir,
    mongodDownload: config.mongodDownload,
    log: (message) => logger.info(message),
  });
  try {
    const uri = config.mongodbUri ?? `${databaseServer.uri.replace(/\/?$/, '/')}${config.databaseName}`;
    const database = await connectDatabase(uri, config.databaseName, { timeoutMs: config.dbTimeoutMs, longTimeoutMs: config.dbLongTimeoutMs });
    logger.info({ server: database.server.label, database: config.databaseName, embedded: databaseServer.kind !== 'external' }, 'database ready');
    const runtime = await assemble(config, schemas, database, databaseServer, logger);
    // A stalled engine (FerretDB with its SQLite file locked) answers pings but no reads: the
    // supervisor reads a record every second and restarts a server that fails three times in a row.
    databaseServer.watchReads?.((timeoutMs) => database.readable(timeoutMs), config.dbTimeoutMs);
    return runtime;
  } catch (error) {
    await databaseServer.stop();
    throw error;
  }
}

async function assemble(config: Config, schemas: SchemaRegistry, database: Database, databaseServer: DatabaseServer, logger: Logger): Promise<Runtime> {
  const checkProjectId = schemas.check(`${SCHEMA_BASE}defs/ids.json#/$defs/projectId`);
  // FerretDB applies an update as a read and a write, so writes to one record (and bumps of one
  // version's revision) are queued in this process there (and the embedded database is
  // single-instance); MongoDB needs no lock.
  const serialiseWrites = database.server.kind === 'ferretdb';
  const tenancy = new Tenancy(database.db, {
    project: schemas.idPrefix('projectId'),
    version: schemas.idPrefix('versionId'),
    apiKey: schemas.idPrefix('apiKeyId'),
    isProjectId: (ref) => checkProjectId(ref).length === 0,
  }, { serialiseWrites });
  const { revisions } = tenancy;
  const stores = new Map(schemas.collections.map((collection) => [collection.name, new RecordStore(database.db, collection, { revisions, serialiseWrites })]));
  const observations = new Observations(database.db, { ferretdb: database.server.kind === 'ferretdb' });
  const versionRecords = new VersionRecords(database.db, schemas.collections, revisions, { companions: [...INSIGHT_COMPANIONS, SERVICE_PARTS_COMPANION, LINT_REPORTS_COMPANION, SCORES_COMPANION] });
  const versionManager = new VersionManager(tenancy, versionRecords, {
    cacheMs: config.versionCacheMs,
    log: (message, fields) => logger.warn(fields ?? {}, message),
  });
  await tenancy.createIndexes();
  for (const store of stores.values()) await store.createIndexes();
  const owned = await ownImportedSchemes(stores);
  if (owned > 0) logger.info({ owned }, 'security schemes stored before schemes had owners given the service that imported them');
  await observations.createIndexes();
  // Not awaited: the service answers at once, from the index alone until the model is loaded
  // (the first start fetches it: seconds to minutes); its log lines say which.
  const model = loadSearchModel(config.searchModel, config.cacheDir, { info: (message) => logger.info(message), warn: (message) => logger.warn(message) });
  const searchVectors = new SearchVectors(database.db, model, (message, fields) => logger.warn(fields ?? {}, message));
  await searchVectors.createIndexes();
  const serviceParts = new ServiceParts(database.db);
  await serviceParts.createIndexes();
  // Its indexes are made by the service process, which delivers (index.ts): a CLI command does not wait for them.
  const events = new ChangeEvents(database.db, { stores, versions: tenancy.versions, revisions }, config.webhooks, (message, fields) => logger.warn(fields ?? {}, message));
  // A lint report or score card that changes records its event with its write (room-events.ts).
  const lints = new Lints(database.db, stores, serviceParts, { enabled: config.lint, timeoutMs: config.lintTimeoutMs, storing: lintEvents(events), log: (message, fields) => logger.warn(fields ?? {}, message) });
  await lints.createIndexes();
  const searchIndexes = new SearchIndexes(stores, revisions, { vectors: searchVectors, log: (message, fields) => logger.warn(fields ?? {}, message) });
  const scoreStore = new ScoreStore(database.db);
  await scoreStore.createIndexes();
  // The security subscore reads the stored lint's OWASP findings; a new lint report makes the card again.
  const scorer = new Scorer({
    store: scoreStore, stores, searchIndexes, storing: scoreEvents(events, async (versionId) => (await tenancy.versions.find(versionId))?.projectId), log: (message, fields) => logger.warn(fields ?? {}, message),
    lintFindings: async (versionId, serviceId) => (await lints.findingsOf(versionId, serviceId))?.findings, enabled: config.scores,
  });
  lints.linted = (versionId, serviceId, findings) => scorer.recompute(versionId, serviceId, findings);
  return {
    config: withJwtSecret(config, config.jwtSecret ?? await embeddedJwtSecret(config.dataDir)) as Runtime['config'],
    databaseServer,
    database,
    schemas,
    tenancy,
    stores,
    versionRecords,
    versionManager,
    observations,
    searchIndexes,
    serviceParts,
    events,
    lints,
    scorer,
    async close() {
      // Deliveries under way finish (each bounded by WEBHOOK_TIMEOUT_MS); no new one starts.
      await events.worker.stop();
      // The lints owed stay pending for the next start.
      lints.close();
      // Whatever is still running is abandoned: a stuck call must not hold the shutdown.
      database.abandonCalls('the service is stopping');
      await versionManager.stopSweeper();
      await scorer.close();
      await searchVectors.close();
      await database.close();
      await databaseServer.stop();
    },
  };
}

/**
 * With the embedded database and no JWT_SECRET, tokens are signed with a secret generated
 * once and kept beside the data, so tokens survive restarts just as the data does.
 */
async function embeddedJwtSecret(dataDir: string): Promise<string> {
  const file = path.join(dataDir, 'jwt-secret');
  try {
    return (await fs.readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await fs.mkdir(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  try {
    // `wx`: if another process (the admin CLI) wrote it first, keep theirs.
    await fs.writeFile(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return (await fs.readFile(file, 'utf8')).trim();
  }
}
