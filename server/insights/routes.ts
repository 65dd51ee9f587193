// The door of traffic insights, on both families, run by the one pipeline:
//   POST   {prefix}/insights/connections            an analyzer reports for a service (write)
//   DELETE {prefix}/insights/connections/{service}  it stopped (write)
//   POST   {prefix}/insights/reports                a HAR, OTLP or NDJSON report of calls (write)
//   GET    {prefix}/insights/endpoints              documented and observed endpoints, with status (read)
//   (GET   {prefix}/insights/lifecycle: lifecycle-routes.ts)
import { RecordNotFound, SERVICE_REF_INVALID } from '../errors.ts';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../records/list-query.ts';
import { serviceParameter, type Tag } from '../routes/documentation.ts';
import type { QueryValues, Route, VersionContext } from '../routes/route.ts';
import { serviceNamed } from '../pipeline/stages.ts';
import { FAMILIES } from '../routes/route.ts';
import type { ConnectionRequest } from '../schemas/generated/types.ts';
import { SCHEMA_BASE, type SchemaRegistry } from '../schemas/registry.ts';
import type { RecordStore } from '../store/records.ts';
import { ingest } from './ingest.ts';
import type { Observations } from './observations.ts';
import { reportBodyReader, type ReportBody } from './report-body.ts';
import { callsOf } from './reports.ts';
import { touchService } from './services.ts';
import { DEFAULT_SINCE_DAYS, STATUSES, endpointsPage, viewQuery, type ViewParameters } from './view.ts';
import { storeOf } from '../store/stores.ts';
import { textsOf } from '../routes/texts.ts';

const texts = textsOf(new URL('./texts.md', import.meta.url));

const CONNECTIONS_SEGMENT = '/insights/connections';
const REPORTS_SEGMENT = '/insights/reports';
const ENDPOINTS_SEGMENT = '/insights/endpoints';
const SERVICE_REF = { $ref: `${SCHEMA_BASE}defs/ids.json#/$defs/serviceRef` };

export const INSIGHTS_TAG: Tag = {
  name: 'Traffic insights',
  description: 'What the catalog\'s services are really called with: analyzers report observed calls (HAR, OpenTelemetry, access logs); each is matched to a documented operation, and the endpoints view says which are used, unused, undocumented (shadow) or deprecated but still called (zombie). Observations are not records: they change no updatedAt and no version diff. See docs/insights.md.',
};

const INSIGHTS = `${SCHEMA_BASE}api/insights.json#/$defs/`;

export interface InsightParts {
  schemas: SchemaRegistry;
  stores: ReadonlyMap<string, RecordStore>;
  observations: Observations;
  /** IMPORT_BODY_LIMIT: a report may be as large as an API description. */
  reportLimit: number;
}

export function insightRoutes(parts: InsightParts): Route[] {
  const NOT_FOUND = new RecordNotFound(parts.schemas.collection('services').notFound);
  const services = storeOf(parts.stores, 'services');
  const readReport = reportBodyReader(parts.reportLimit);
  const named = (versionId: string, ref: string, argument: string) => serviceNamed(parts.schemas, services, versionId, ref, argument);
  return FAMILIES.flatMap((family): Route[] => {
    const suffix = family.operationIdSuffix;
    const params = family.params;
    const common = { tag: INSIGHTS_TAG.name, params } as const;
    return [
      {
        method: 'POST', path: `${family.prefix}${CONNECTIONS_SEGMENT}`, target: family.name, access: 'write',
        body: 'json',
        doc: {
          ...common, operationId: `connectAnalyzer${suffix}`,
          summary: 'Start (or keep alive) an analyzer connection',
          description: 'An analyzer reports for this service from now on: sets the Service\'s `hasConnection` to true and `lastConnectionAt` to now. Call it again as a heartbeat. These are Service record fields: the write moves the record\'s `updatedAt`. The answer is the connection, not the Service record (which can be large).',
          body: { schema: { $ref: `${INSIGHTS}connectionRequest` }, example: { service: 'petstore' }, invalid: { '/': 'must be a JSON object', '/service': SERVICE_REF_INVALID } },
          responses: [{
            status: 200, description: 'The connection after the change.', schema: { $ref: `${INSIGHTS}connection` },
            example: { service: { id: 'svc_01M84F1JTPJ82S6K6669243TB0', slug: 'petstore' }, hasConnection: true, lastConnectionAt: '2026-11-24T08:00:00.000Z' },
          }],
          errors: [NOT_FOUND, 413, 415],
        },
        async run({ version, body }: VersionContext<QueryValues, ConnectionRequest>) {
          const service = await named(version.versionId, body.service, '/service');
          const now = new Date();
          const record = await touchService(services, version.versionId, service.id, { hasConnection: true, lastConnectionAt: now.toISOString() }, now);
          // Deleted meanwhile: the connection was made, on a service that is gone.
          const after = record ?? service;
          return {
            status: 200,
            body: { service: { id: after.id, slug: after['slug'] }, hasConnection: after['hasConnection'] === true, lastConnectionAt: after['lastConnectionAt'] ?? null },
          };
        },
      },
      {
        method: 'DELETE', path: `${family.prefix}${CONNECTIONS_SEGMENT}/:id`, target: family.name, access: 'write',
        body: false, checkId: parts.schemas.checkServiceRef,
        doc: {
          ...common, operationId: `disconnectAnalyzer${suffix}`,
          params: { ...params, id: SERVICE_REF },
          summary: 'End an analyzer connection',
          description: 'Sets the Service\'s `hasConnection` to false (a service without one was already there: 204 too). Its documented endpoints not called since `since` become `unobserved` rather than `orphan`.',
          responses: [{ status: 204, description: 'The service has no connection.' }],
          errors: [NOT_FOUND],
        },
        async run({ version, id }) {
          const service = await named(version.versionId, id, 'id');
          if (service['hasConnection'] === true) await touchService(services, version.versionId, service.id, { hasConnection: false });
          return { status: 204 };
        },
      },
      {
        method: 'POST', path: `${family.prefix}${REPORTS_SEGMENT}`, target: family.name, access: 'write',
        body: readReport, longRunning: true,
        doc: {
          ...common, operationId: `reportTraffic${suffix}`,
          summary: 'Report observed calls',
          description: texts('reportTraffic'),
          query: [serviceParameter('Slug or `svc_` id of the service whose calls these are when their host says nothing (host-less NDJSON, relative servers); an unknown service is 404.')],
          body: {
            schema: { oneOf: [{ $ref: `${SCHEMA_BASE}reports/har.json` }, { $ref: `${SCHEMA_BASE}reports/otlp-traces.json` }, { $ref: `${SCHEMA_BASE}reports/ndjson-call.json`, description: 'For application/x-ndjson: each line is one of these.' }] },
            mediaTypes: ['application/json', 'application/har+json', 'application/x-ndjson'],
            example: { log: { version: '1.2', entries: [{ startedDateTime: '2026-11-24T08:00:00.000Z', request: { method: 'GET', url: 'https://petstore.example/v1/pets/42' }, response: { status: 200 } }] } },
          },
          responses: [{ status: 200, description: 'What was counted.', schema: { $ref: `${INSIGHTS}reportAnswer` }, example: { received: 1, matched: 1, shadow: 0, unmatched: 0, grouped: { calls: 0, templates: 0 }, duplicate: false } }],
          errors: [NOT_FOUND, 413, 415],
        },
        async run({ version, body, query }: VersionContext<{ service?: string }>) {
          const report = body as ReportBody;
          // Everything is checked before anything is counted.
          const { calls } = callsOf(parts.schemas, report);
          const service = query.service === undefined ? undefined : await named(version.versionId, query.service, 'service');
          const answer = await ingest(parts, {
            versionId: version.versionId, calls,
            ...(service !== undefined && { service }),
            ...(report.idempotencyKey !== undefined && { idempotencyKey: report.idempotencyKey }),
          });
          return { status: 200, body: answer };
        },
      },
      {
        method: 'GET', path: `${family.prefix}${ENDPOINTS_SEGMENT}`, target: family.name, access: 'read',
        body: false, longRunning: true,
        doc: {
          ...common, operationId: `listEndpointInsights${suffix}`,
          summary: 'List endpoints with what traffic says of them',
          description: texts('listEndpoints'),
          query: [
            serviceParameter('Only this service (slug or `svc_` id); an unknown service is 404.'),
            { name: 'status', description: 'Only endpoints with this status.', schema: { type: 'string', enum: [...STATUSES] }, invalid: `must be one of ${STATUSES.join(', ')}` },
            {
              name: 'since', description: `Calls since this instant count as recent; default ${DEFAULT_SINCE_DAYS} days ago.`, schema: { type: 'string', format: 'date-time' },
              invalid: 'must be an ISO 8601 date-time with a time zone, e.g. 2026-01-31T12:00:00.000Z',
            },
            { name: 'cursor', description: 'The `nextCursor` of the previous page.', schema: { type: 'string' } },
            { name: 'limit', description: `Page size, 1–${MAX_LIMIT}; default ${DEFAULT_LIMIT}.`, schema: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT }, invalid: `must be an integer from 1 to ${MAX_LIMIT}` },
          ],
          responses: [{ status: 200, description: 'One page of the view.', schema: { $ref: `${INSIGHTS}endpointsPage` } }],
          errors: [NOT_FOUND],
        },
        async run({ version, query }: VersionContext<ViewParameters>) {
          const view = viewQuery(query);
          const { versionId } = version;
          const chosen = view.service === undefined ? undefined : await named(versionId, view.service, 'service');
          const [serviceList, paths, operations] = await Promise.all([
            chosen ? Promise.resolve([chosen]) : services.all(versionId),
            storeOf(parts.stores, 'paths').all(versionId),
            storeOf(parts.stores, 'operations').all(versionId),
          ]);
          const mine = chosen ? paths.filter((path) => path['serviceId'] === chosen.id) : paths;
          const observations = await parts.observations.of(versionId, chosen ? [chosen.id] : undefined);
          return { status: 200, body: endpointsPage({ services: serviceList, paths: mine, operations }, observations, view) };
        },
      },
    ];
  });
}
