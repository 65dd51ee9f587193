// The door of traffic insights, on both families, run by the one pipeline:
//   POST   {prefix}/insights/connections            an analyzer reports for a service (write)
//   DELETE {prefix}/insights/connections/{service}  it stopped (write)
//   POST   {prefix}/insights/reports                a HAR, OTLP or NDJSON report of calls (write)
//   GET    {prefix}/insights/endpoints              documented and observed endpoints, with status (read)
import { InvalidRequest } from '../errors.ts';
import type { Endpoint } from '../pipeline.ts';
import { FAMILIES } from '../routes/table.ts';
import type { Catalog, Check } from '../schemas/registry.ts';
import type { RecordStore } from '../store/records.ts';
import { ingest } from './ingest.ts';
import type { Observations } from './observations.ts';
import { reportBodyReader, type ReportBody } from './report-body.ts';
import { callsOf } from './reports.ts';
import { serviceNamed, touchService } from './services.ts';
import { endpointsPage, parseViewQuery } from './view.ts';

export const CONNECTIONS_SEGMENT = '/insights/connections';
export const REPORTS_SEGMENT = '/insights/reports';
export const ENDPOINTS_SEGMENT = '/insights/endpoints';
const SLUG = /^[a-z0-9-]+$/;
export const VIEW_QUERY = ['service', 'status', 'since', 'cursor', 'limit'] as const;

export interface InsightParts {
  catalog: Catalog;
  stores: ReadonlyMap<string, RecordStore>;
  observations: Observations;
  /** IMPORT_BODY_LIMIT: a report may be as large as an API description. */
  reportLimit: number;
}

export function insightEndpoints(parts: InsightParts): Endpoint[] {
  const services = parts.stores.get('services')!;
  const readReport = reportBodyReader(parts.reportLimit);
  const checkServiceRef: Check = (value) => (typeof value === 'string' && (SLUG.test(value) || services.collection.checkId(value).length === 0)
    ? [] : [{ field: '', message: 'must be a service slug or id' }]);
  return FAMILIES.flatMap((family): Endpoint[] => [
    {
      method: 'POST', path: `${family.prefix}${CONNECTIONS_SEGMENT}`, target: family.name, access: 'write',
      body: 'json', query: false, success: [200],
      async run({ version, body }) {
        const ref = (body as { service?: unknown } | null)?.service;
        if (typeof body !== 'object' || body === null || Array.isArray(body)) throw InvalidRequest.field('/', 'must be a JSON object');
        const unknown = Object.keys(body).find((field) => field !== 'service');
        if (unknown !== undefined) throw InvalidRequest.field(`/${unknown}`, 'is not a known field');
        if (typeof ref !== 'string' || ref === '') throw InvalidRequest.field('/service', 'must be a service slug or id');
        const service = await serviceNamed(services, version!.versionId, ref);
        const now = new Date();
        const record = await touchService(services, version!.versionId, service.id, { hasConnection: true, lastConnectionAt: now.toISOString() }, now);
        return { status: 200, body: record ?? service };
      },
    },
    {
      method: 'DELETE', path: `${family.prefix}${CONNECTIONS_SEGMENT}/:id`, target: family.name, access: 'write',
      body: false, query: false, success: [204], checkId: checkServiceRef,
      async run({ version, id }) {
        const service = await serviceNamed(services, version!.versionId, id);
        if (service['hasConnection'] === true) await touchService(services, version!.versionId, service.id, { hasConnection: false });
        return { status: 204 };
      },
    },
    {
      method: 'POST', path: `${family.prefix}${REPORTS_SEGMENT}`, target: family.name, access: 'write',
      body: readReport, query: ['service'], success: [200], longRunning: true,
      async run({ version, body, query }) {
        const report = body as ReportBody;
        // Everything is checked before anything is counted.
        const { calls } = callsOf(parts.catalog, report);
        const service = query['service'];
        if (service !== undefined && typeof service !== 'string') throw InvalidRequest.field('service', 'must be given once');
        const answer = await ingest(parts, {
          versionId: version!.versionId, calls,
          ...(service !== undefined && { service }),
          ...(report.idempotencyKey !== undefined && { idempotencyKey: report.idempotencyKey }),
        });
        return { status: 200, body: answer };
      },
    },
    {
      method: 'GET', path: `${family.prefix}${ENDPOINTS_SEGMENT}`, target: family.name, access: 'read',
      body: false, query: VIEW_QUERY, success: [200], longRunning: true,
      async run({ version, query }) {
        const view = parseViewQuery(query);
        const { versionId } = version!;
        const chosen = view.service === undefined ? undefined : await serviceNamed(services, versionId, view.service);
        const [serviceList, paths, operations] = await Promise.all([
          chosen ? Promise.resolve([chosen]) : services.all(versionId),
          parts.stores.get('paths')!.all(versionId),
          parts.stores.get('operations')!.all(versionId),
        ]);
        const mine = chosen ? paths.filter((path) => path['serviceId'] === chosen.id) : paths;
        const observations = await parts.observations.of(versionId, chosen ? [chosen.id] : undefined);
        return { status: 200, body: endpointsPage({ services: serviceList, paths: mine, operations }, observations, view) };
      },
    },
  ]);
}
