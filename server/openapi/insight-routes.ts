// The traffic-insights routes (server/insights/routes.ts) as documented routes, on both families:
// connections, reports and the endpoints view.
import { RecordNotFound } from '../errors.ts';
import { CONNECTIONS_SEGMENT, ENDPOINTS_SEGMENT, REPORTS_SEGMENT } from '../insights/routes.ts';
import { DEFAULT_SINCE_DAYS, STATUSES } from '../insights/view.ts';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../operations/list-query.ts';
import { FAMILIES } from '../routes/table.ts';
import { SCHEMA_BASE } from '../schemas/registry.ts';
import { FAMILY_PARAMS } from './collection-routes.ts';
import type { DocumentedRoute, Tag } from './documented-route.ts';

export const INSIGHTS_TAG: Tag = {
  name: 'Traffic insights',
  description: 'What the catalog\'s services are really called with: analyzers report observed calls (HAR, OpenTelemetry, access logs); each is matched to a documented operation, and the endpoints view says which are used, unused, undocumented (shadow) or deprecated but still called (zombie). Observations are not records: they change no updatedAt and no version diff. See docs/insights.md.',
};

const INSIGHTS = `${SCHEMA_BASE}api/insights.json#/$defs/`;
const NOT_FOUND = new RecordNotFound('Service not found');

export const insightRouteDocs: readonly DocumentedRoute[] = FAMILIES.flatMap((family): DocumentedRoute[] => {
  const suffix = family.name === 'V' ? '' : 'ByProject';
  const params = FAMILY_PARAMS[family.name]!;
  const common = { tag: INSIGHTS_TAG.name, params } as const;
  return [
    {
      ...common, method: 'POST', path: `${family.prefix}${CONNECTIONS_SEGMENT}`, operationId: `connectAnalyzer${suffix}`, access: 'write',
      summary: 'Start (or keep alive) an analyzer connection',
      description: 'An analyzer reports for this service from now on: sets the Service\'s `hasConnection` to true and `lastConnectionAt` to now. Call it again as a heartbeat. These are Service record fields: the write moves the record\'s `updatedAt`.',
      body: { schema: { $ref: `${INSIGHTS}connectionRequest` }, example: { service: 'petstore' } },
      responses: [{ status: 200, description: 'The Service record after the change.', schema: { $ref: `${SCHEMA_BASE}records/service.json` } }],
      errors: [400, 401, 403, NOT_FOUND, 413, 415, 500, 503],
    },
    {
      ...common, method: 'DELETE', path: `${family.prefix}${CONNECTIONS_SEGMENT}/:id`, operationId: `disconnectAnalyzer${suffix}`, access: 'write',
      params: { ...params, id: { type: 'string', description: 'The service\'s slug or `svc_` id.', minLength: 1 } },
      summary: 'End an analyzer connection',
      description: 'Sets the Service\'s `hasConnection` to false (a service without one was already there: 204 too). Its documented endpoints not called since `since` become `unobserved` rather than `orphan`.',
      responses: [{ status: 204, description: 'The service has no connection.' }],
      errors: [400, 401, 403, NOT_FOUND, 500, 503],
    },
    {
      ...common, method: 'POST', path: `${family.prefix}${REPORTS_SEGMENT}`, operationId: `reportTraffic${suffix}`, access: 'write',
      summary: 'Report observed calls',
      description: 'One report per request, recognised by its content type and shape: a HAR 1.2 archive (`application/json` or `application/har+json`), an OTLP/HTTP JSON trace export (`application/json`; server spans are calls, client spans mention the service they called), or NDJSON access-log lines (`application/x-ndjson`: `method`, `url` or `host` + `path`, `status`, `time`). Up to `IMPORT_BODY_LIMIT`, gzip accepted. A call matches a service by its servers (host and base path; server variables expanded from their `enum` or `default`), then an operation by method and path template, the most literal template winning (`/pets/mine` before `/pets/{petId}`). The whole report is checked before anything is counted: a malformed one is 400 and counts nothing. An optional `Idempotency-Key` header (1–255 visible ASCII characters, remembered 24 hours per version) makes a retried report count once: the retry answers the first one\'s counts with `duplicate: true`. Sets `lastReportAt` of each service the report had calls for and `lastMentionAt` of each service a client (HAR entry, client span) called. Only method, host, path, status and time are read: bodies, query values, headers and cookies are never stored or logged.',
      query: [{ name: 'service', description: 'Slug or id of the service whose calls these are when their host says nothing (host-less NDJSON, relative servers); an unknown service is 404.', schema: { type: 'string', minLength: 1 } }],
      body: {
        schema: { oneOf: [{ $ref: `${SCHEMA_BASE}reports/har.json` }, { $ref: `${SCHEMA_BASE}reports/otlp-traces.json` }, { $ref: `${SCHEMA_BASE}reports/ndjson-call.json`, description: 'For application/x-ndjson: each line is one of these.' }] },
        mediaTypes: ['application/json', 'application/har+json', 'application/x-ndjson'],
        example: { log: { version: '1.2', entries: [{ startedDateTime: '2026-11-24T08:00:00.000Z', request: { method: 'GET', url: 'https://petstore.example/v1/pets/42' }, response: { status: 200 } }] } },
      },
      responses: [{ status: 200, description: 'What was counted.', schema: { $ref: `${INSIGHTS}reportAnswer` }, example: { received: 1, matched: 1, unmatched: 0, duplicate: false } }],
      errors: [400, 401, 403, NOT_FOUND, 413, 415, 500, 503],
    },
    {
      ...common, method: 'GET', path: `${family.prefix}${ENDPOINTS_SEGMENT}`, operationId: `listEndpointInsights${suffix}`, access: 'read',
      summary: 'List endpoints with what traffic says of them',
      description: 'One item per documented operation of the chosen services and per undocumented method and path called since `since` (shadow), ordered by service slug, path and method, keyset-paginated like lists (`nextCursor` is opaque). Status: `active` (documented, called since `since`), `zombie` (deprecated and called since `since`), `orphan` (documented, not called since `since`, while the service has a connection), `unobserved` (documented, not called since `since`, no connection), `shadow` (called, no operation matches; ids folded to `{id}`).',
      query: [
        { name: 'service', description: 'Only this service (slug or id); an unknown service is 404.', schema: { type: 'string', minLength: 1 } },
        { name: 'status', description: 'Only endpoints with this status.', schema: { type: 'string', enum: [...STATUSES] } },
        { name: 'since', description: `Calls since this instant count as recent; default ${DEFAULT_SINCE_DAYS} days ago.`, schema: { type: 'string', format: 'date-time' } },
        { name: 'cursor', description: 'The `nextCursor` of the previous page.', schema: { type: 'string' } },
        { name: 'limit', description: `Page size, 1–${MAX_LIMIT}; default ${DEFAULT_LIMIT}.`, schema: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT } },
      ],
      responses: [{ status: 200, description: 'One page of the view.', schema: { $ref: `${INSIGHTS}endpointsPage` } }],
      errors: [400, 401, 403, NOT_FOUND, 500, 503],
    },
  ];
});
