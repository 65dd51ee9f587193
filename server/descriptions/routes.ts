// The routes of API descriptions, on both families, as endpoints run by the same pipeline as
// the record routes (authenticate → resolve → authorize → body → run → outcome):
//   POST {prefix}/imports/openapi       import (sync) an OpenAPI document into a service (write);
//                                       dryRun and failOn=breaking report or gate its changes (server/changes/);
//                                       without service, 409 when the version holds the description already (same-service.ts)
//   GET  {prefix}/services/{id}/openapi export a service (by slug or id) as OpenAPI 3.1 (read)
import { stringify as toYaml } from 'yaml';
import { InvalidRequest, RecordNotFound } from '../errors.ts';
import { isObject, type JsonObject } from '../json/values.ts';
import type { Admission, ResolvedVersion, Route, VersionContext } from '../routes/route.ts';
import { serviceRoutes } from '../pipeline/service-routes.ts';
import { FAMILIES } from '../routes/route.ts';
import type { RecordLimits } from '../store/record-cost.ts';
import type { Schema, Tag } from '../routes/documentation.ts';
import { SCHEMA_BASE, type SchemaRegistry } from '../schemas/registry.ts';
import type { HeldWrite, RecordStore } from '../store/records.ts';
import { DescriptionArchive } from '../http/archive-body.ts';
import { bundleArchive } from './archive.ts';
import { prepareAside } from './preparation.ts';
import { exportService } from './export.ts';
import { shareRepeated } from './sharing.ts';
import { serviceScoped } from '../views/service-records.ts';
import type { ServiceParts } from './service-parts.ts';
import { describedAlready } from './same-service.ts';
import { importDocument, slugOf, type ImportPlan } from './sync.ts';
import { storeOf } from '../store/stores.ts';
import { textsOf } from '../routes/texts.ts';

const texts = textsOf(new URL('./texts.md', import.meta.url));

const IMPORT_SEGMENT = '/imports/openapi';

export const DESCRIPTIONS_TAG: Tag = {
  name: 'API descriptions',
  description: 'OpenAPI documents in and out: an import syncs a service\'s records by their natural keys; an export assembles OpenAPI 3.1 from them.',
};

/** The import's query, as its schemas checked and typed it. */
type ImportQuery = {
  service?: string;
  dryRun: boolean;
  failOn?: 'breaking' | 'lint-error';
  minScore?: number;
  entry?: string;
  beside: boolean;
};

/** The score a document would give the service `slug` (a dry run reports it); throws the refusal below `minScore`. */
/** The score the import would give the service (a dry run's `score`, the minScore gate); undefined where the catalog does not score and no gate asks. */
export type ScoreImport = (versionId: string, document: JsonObject, slug: string, minScore?: number) => Promise<Record<string, unknown> | undefined>;

/** What other rooms lend the import (wired in server/rooms.ts). */
export interface ImportHooks {
  /**
   * Called after an import wrote, with what it wrote (none when nothing changed), and awaited:
   * the search index takes the import's own records (its cost is theirs, not the version's) and
   * starts anything costlier behind the answer. Never throws.
   */
  imported(versionId: string, written: HeldWrite | undefined): Promise<void>;
  /** A review of the import's plan: what it changes for clients (reported by a dry run), refused with `failOnBreaking` when it breaks them. */
  reviewImport(options: { failOnBreaking: boolean }): { review(plan: ImportPlan): Promise<void>; readonly report: unknown };
  /** What imports keep beside each Service record, written by the import and laid back by the export. */
  serviceParts: ServiceParts;
  /** The import's change events (events/), when anyone wants them: recorded with its write. */
  importEvents?(version: ResolvedVersion): Promise<ImportEvents | undefined>;
  /** A lint of the import's plan: the findings it adds and fixes (reported by a dry run), refused with `failOnLintError` when it leaves error findings. */
  reviewLint?(options: { projectId: string; versionId: string; failOnLintError: boolean }): { review(plan: ImportPlan): Promise<void>; readonly delta: unknown } | undefined;
  /** Called after an import wrote a service, and awaited: its lint is owed (started behind the answer). */
  described?(projectId: string, versionId: string, serviceId: string): Promise<void>;
  /** The score the document would give the service (reported by a dry run), refused below `minScore`: scores/gate.ts. */
  scoreImport?: ScoreImport;
}

/** An import's change events: recorded before its write, with the revision it commits under; settled after it. */
export interface ImportEvents {
  /** `report`: the changes report of the plan when the import made one (a gate), which the events count. Answers the revision token the write is to commit under. */
  beforeWrite(plan: ImportPlan, report: unknown): Promise<string>;
  /** The import ended, written or not (a write cut short still gave the version its revision); what the events still need is made behind the answer. */
  after(): Promise<void>;
}

export function descriptionRoutes(stores: ReadonlyMap<string, RecordStore>, schemas: SchemaRegistry, limits: RecordLimits, { imported, reviewImport, serviceParts, importEvents, described, reviewLint, scoreImport }: ImportHooks, admission: Admission): Route[] {
  const servicesCollection = schemas.collections.find((collection) => collection.name === 'services');
  if (!servicesCollection) throw new Error('API descriptions need the services collection (schemas/collections.json)');
  const tag = DESCRIPTIONS_TAG.name;
  const imports = FAMILIES.map((family): Route => (
    {
      method: 'POST', path: `${family.prefix}${IMPORT_SEGMENT}`, target: family.name, access: 'write',
      body: 'document', longRunning: true, admission,
      doc: {
        operationId: `importOpenApi${family.operationIdSuffix}`, tag, params: family.params,
        summary: 'Import an OpenAPI document into a service',
        description: texts('importOpenApi'),
        query: [
          {
            name: 'service', description: 'The service slug; default: from `info.title`.', schema: { $ref: `${SCHEMA_BASE}defs/ids.json#/$defs/serviceSlug` },
            invalid: 'must be a service slug (lowercase letters, digits and hyphens)',
          },
          { name: 'dryRun', description: '`true`: answer the plan, write nothing; the answer has `changes`, what the import would change for clients, `lint`, the findings it would add and fix against the service\'s stored lint, and `score`, the service\'s score before and after (`lint` and `score` where the catalog lints and scores: LINT, SCORES).', schema: { type: 'boolean', default: false }, invalid: 'must be true or false' },
          {
            name: 'entry', description: 'With a zip body: the path of the root document inside the archive; default: the one file with `openapi` or `swagger` at its top level.',
            schema: { type: 'string', minLength: 1, maxLength: 1024 }, invalid: 'must be a path inside the archive',
          },
          { name: 'beside', description: '`true`: without `service`, import as a new service even when one of the version\'s services has the description\'s title or servers (otherwise 409, naming it).', schema: { type: 'boolean', default: false }, invalid: 'must be true or false' },
          { name: 'minScore', description: 'Refuse (409, nothing written) an import that would give the service a score below this (0–100, docs/scores.md); `details` give the score and each subscore below it with its commonest fixes. A dry run reports the score before and after (`score`).', schema: { type: 'integer', minimum: 0, maximum: 100 }, invalid: 'must be an integer from 0 to 100' },
          { name: 'failOn', description: texts('failOn'), schema: { type: 'string', enum: ['breaking', 'lint-error'] }, invalid: 'must be breaking or lint-error' },
        ],
        body: {
          schema: importedDocument,
          mediaTypes: ['application/json', 'application/yaml'],
          otherMediaTypes: { 'application/zip': { type: 'string', contentMediaType: 'application/zip', description: 'A zip of the description\'s files; `entry` names the root document.' } },
          example: { openapi: '3.1.0', info: { title: 'Petstore', version: '1.0.0' }, paths: { '/pets': { get: { operationId: 'listPets', responses: { 200: { description: 'The pets.' } } } } } },
        },
        responses: [
          { status: 200, description: 'The service existed (or a dry run): what changed, or would.', schema: importReport },
          { status: 201, description: 'The service was created.', schema: importReport },
        ],
        errors: [409, 413, 415],
      },
      async run({ version, body, query: { service, dryRun, failOn, minScore, entry, beside } }: VersionContext<ImportQuery>) {
        if (entry !== undefined && !(body instanceof DescriptionArchive)) throw InvalidRequest.field('entry', 'is only for a zip archive body (Content-Type: application/zip)');
        const document = await prepareAside(body instanceof DescriptionArchive ? await bundleArchive(body, entry) : body, limits);
        if (service === undefined && !beside) {
          const conflict = await describedAlready(stores, version.versionId, document, slugOf(String(isObject(document['info']) ? document['info']['title'] ?? '' : '')));
          if (conflict) throw conflict;
        }
        // The score it would give the service: reported by a dry run, a gate with minScore. A review
        // like the others, so it runs only on a plan within the record limits, before anything is written.
        const title = String(isObject(document['info']) ? document['info']['title'] ?? '' : '');
        let score: Record<string, unknown> | undefined;
        const scoring = scoreImport && (dryRun || minScore !== undefined)
          ? async () => { score = await scoreImport(version.versionId, document, service ?? slugOf(title), minScore); }
          : undefined;
        const events = dryRun ? undefined : await importEvents?.(version);
        // What clients of the service would see change: reported by a dry run, a gate with failOn.
        const review = dryRun || failOn === 'breaking' ? reviewImport({ failOnBreaking: failOn === 'breaking' }) : undefined;
        // What lint would find in the description as imported: reported by a dry run, a gate with failOn=lint-error.
        const lint = dryRun || failOn === 'lint-error' ? reviewLint?.({ projectId: version.projectId, versionId: version.versionId, failOnLintError: failOn === 'lint-error' }) : undefined;
        const reviews = [review?.review, lint?.review, scoring].filter((each) => each !== undefined);
        const report = await importDocument(
          { stores, versionId: version.versionId, projectId: version.projectId, limits, serviceParts },
          document,
          {
            ...(service === undefined ? {} : { service }), dryRun, ...(reviews.length > 0 && { review: async (plan: ImportPlan) => { for (const each of reviews) await each(plan); } }),
            ...(events && { beforeWrite: (plan: ImportPlan) => events.beforeWrite(plan, review?.report) }),
          },
        ).finally(() => events?.after());
        // The search index takes the records written before the answer, so the next search is served at once.
        if (!dryRun) await imported(version.versionId, report.written);
        if (report.written && described) await described(version.projectId, version.versionId, report.body.service.id);
        return { status: report.created ? 201 : 200, body: { ...report.body, ...(review?.report ? { changes: review.report } : {}), ...(lint?.delta ? { lint: lint.delta } : {}), ...(score ? { score } : {}) } };
      },
    }
  ));
  const exports = serviceRoutes(schemas, storeOf(stores, 'services'), {
    segment: 'openapi', operationId: 'exportOpenApi', longRunning: true,
    doc: {
      tag, summary: 'Export a service as OpenAPI 3.1',
      description: 'The service named by its slug (`petstore`) or its `svc_` id. JSON, or YAML with `Accept: application/yaml`. `components.schemas` holds the Resources its schemas reference.',
      responses: [{ status: 200, description: 'The OpenAPI document.', schema: openApiDocument }],
    },
    async run(service, { version, accepts }) {
      const document = shareRepeated(await exportService(serviceScoped(stores, version.versionId, service), version.versionId, service, await serviceParts.of(version.versionId, service.id)));
      if (accepts(['application/json', 'application/yaml']) === 'application/yaml') {
        return { status: 200, body: toYaml(document, { aliasDuplicateObjects: false }), headers: { 'Content-Type': 'application/yaml; charset=utf-8' } };
      }
      return { status: 200, body: document };
    },
  });
  return [...imports, ...exports];
}

const importReport: Schema = { $ref: `${SCHEMA_BASE}api/import-report.json` };

const openApiDocument: Schema = { type: 'object', description: 'An OpenAPI 3.1 document.', required: ['openapi', 'info'] };

/** What the import takes, to its top level; everything below is checked by the OpenAPI schema of the document's version. */
const EXTENSIONS = { '^x-': {} };
const text: Schema = { type: 'string' };
const info: Schema = {
  type: 'object', additionalProperties: false, patternProperties: EXTENSIONS, required: ['title'],
  properties: { title: text, version: { type: 'string', description: 'Required by the specification; a document without it is taken all the same.' }, description: text },
};
const paths: Schema = { type: 'object', description: 'Path Items by path (each starting with `/`).', propertyNames: { pattern: '^/' }, additionalProperties: { type: 'object' } };
const object: Schema = { type: 'object' };
const named = (required: string, more: Record<string, Schema> = {}): Schema => ({
  type: 'object', additionalProperties: false, patternProperties: EXTENSIONS, required: [required], properties: { [required]: text, description: text, ...more },
});
const tags: Schema = { type: 'array', items: named('name') };
const servers: Schema = { type: 'array', items: named('url') };
const security: Schema = { type: 'array', items: { type: 'object', additionalProperties: { type: 'array', items: text } } };
const importedDocument: Schema = {
  description: 'An OpenAPI 3.1 or 3.0, or Swagger 2.0, document: its top level as below, and everything in it valid by the OpenAPI schema of its version (@scalar/openapi-parser), else 400 with the validator\'s findings.',
  oneOf: [
    {
      title: 'OpenAPI 3.1', type: 'object', additionalProperties: false, patternProperties: EXTENSIONS,
      required: ['openapi', 'info'], anyOf: [{ required: ['paths'] }, { required: ['components'] }, { required: ['webhooks'] }],
      properties: { openapi: { type: 'string', pattern: '^3\\.1\\.\\d+(-.+)?$' }, info, paths, webhooks: object, components: object, servers, security, tags },
    },
    {
      title: 'OpenAPI 3.0', type: 'object', additionalProperties: false, patternProperties: EXTENSIONS, required: ['openapi', 'info', 'paths'],
      properties: { openapi: { type: 'string', pattern: '^3\\.0\\.\\d(-.+)?$' }, info, paths, components: object, servers, security, tags },
    },
    {
      title: 'Swagger 2.0', type: 'object', additionalProperties: false, patternProperties: EXTENSIONS, required: ['swagger', 'info', 'paths'],
      properties: { swagger: { const: '2.0' }, info, paths, definitions: object, parameters: object, responses: object, securityDefinitions: object, security, tags },
    },
  ],
};
