// GET {prefix}/insights/lifecycle: who still calls what is going away (lifecycle-view.ts).
import { RecordNotFound } from '../errors.ts';
import { serviceParameter } from '../routes/documentation.ts';
import { FAMILIES, type Route, type VersionContext } from '../routes/route.ts';
import { serviceNamed } from '../pipeline/stages.ts';
import { SCHEMA_BASE } from '../schemas/registry.ts';
import { storeOf } from '../store/stores.ts';
import { lifecycleItems } from './lifecycle-view.ts';
import { INSIGHTS_TAG, type InsightParts } from './routes.ts';

const LIFECYCLE_SEGMENT = '/insights/lifecycle';

export function lifecycleInsightRoutes(parts: InsightParts): Route[] {
  const NOT_FOUND = new RecordNotFound(parts.schemas.collection('services').notFound);
  const services = storeOf(parts.stores, 'services');
  return FAMILIES.map((family): Route => ({
    method: 'GET', path: `${family.prefix}${LIFECYCLE_SEGMENT}`, target: family.name, access: 'read',
    body: false, longRunning: true,
    doc: {
      tag: INSIGHTS_TAG.name, params: family.params, operationId: `listLifecycleInsights${family.operationIdSuffix}`,
      summary: 'List who still calls what is deprecated or sunset',
      description: 'One item per operation, and per parameter of an operation, that is deprecated or has a sunset date (`deprecated`, `sunset` on the records; `deprecated: true` and `x-sunset` in a description), ordered by service slug, path, method, then the operation before its parameters. Each says the calls still seen since the catalog counted them (a parameter: the calls of that operation that sent it, by name: HAR entries and URLs with a query say which), when last, and by which client where the report says (an OTLP resource\'s `service.name`, an NDJSON line\'s `client`; `null` otherwise), and of the calls whose response headers the report had (HAR), how many carried RFC 9745\'s `Deprecation` and RFC 8594\'s `Sunset` headers. An item never called has `calls: 0`.',
      query: [serviceParameter('Only this service (slug or `svc_` id); an unknown service is 404.')],
      responses: [{ status: 200, description: 'The deprecated and sunset items.', schema: { $ref: `${SCHEMA_BASE}api/insights.json#/$defs/lifecycleInsights` } }],
      errors: [NOT_FOUND],
    },
    async run({ version, query }: VersionContext<{ service?: string }>) {
      const { versionId } = version;
      const chosen = query.service === undefined ? undefined : await serviceNamed(parts.schemas, services, versionId, query.service, 'service');
      const [serviceList, paths, operations, parameters] = await Promise.all([
        chosen ? Promise.resolve([chosen]) : services.all(versionId),
        ...['paths', 'operations', 'parameters'].map((name) => storeOf(parts.stores, name).all(versionId)),
      ]);
      const counts = await parts.observations.lifecycleOf(versionId, chosen ? [chosen.id] : undefined);
      return { status: 200, body: { items: lifecycleItems({ services: serviceList!, paths: paths!, operations: operations!, parameters: parameters! }, counts) } };
    },
  }));
}
