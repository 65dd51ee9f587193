// GET {prefix}/insights/lifecycle: who still calls what is going away (lifecycle-view.ts).
import { RecordNotFound } from '../errors.ts';
import { serviceParameter } from '../routes/documentation.ts';
import { FAMILIES, type Route, type VersionContext } from '../routes/route.ts';
import { serviceNamed } from '../pipeline/stages.ts';
import { SCHEMA_BASE } from '../schemas/registry.ts';
import { storeOf } from '../store/stores.ts';
import type { CatalogRecord, RecordStore } from '../store/records.ts';
import { GOING_AWAY } from './lifecycle-calls.ts';
import { lifecycleItems, type VersionRecords } from './lifecycle-view.ts';
import { INSIGHTS_TAG, type InsightParts } from './routes.ts';
import { textsOf } from '../routes/texts.ts';

const texts = textsOf(new URL('./texts.md', import.meta.url));

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
      description: texts('deprecatedOperations'),
      query: [serviceParameter('Only this service (slug or `svc_` id); an unknown service is 404.')],
      responses: [{ status: 200, description: 'The deprecated and sunset items.', schema: { $ref: `${SCHEMA_BASE}api/insights.json#/$defs/lifecycleInsights` } }],
      errors: [NOT_FOUND],
    },
    async run({ version, query }: VersionContext<{ service?: string }>) {
      const { versionId } = version;
      const chosen = query.service === undefined ? undefined : await serviceNamed(parts.schemas, services, versionId, query.service, 'service');
      const [serviceList, records, counts] = await Promise.all([
        chosen ? Promise.resolve([chosen]) : services.all(versionId),
        goingAwayRecords(parts.stores, versionId),
        parts.observations.lifecycleOf(versionId, chosen ? [chosen.id] : undefined),
      ]);
      return { status: 200, body: { items: lifecycleItems({ services: serviceList, ...records }, counts) } };
    },
  }));
}

/**
 * The version's going-away operations and parameters, the operations those parameters belong to
 * (their own, or every operation of their path) and those operations' paths: found by the
 * fields that say so, not by reading the version (GitHub's: 16 s read whole on FerretDB).
 */
async function goingAwayRecords(stores: ReadonlyMap<string, RecordStore>, versionId: string): Promise<Omit<VersionRecords, 'services'>> {
  const [operations, parameters, paths] = (['operations', 'parameters', 'paths'] as const).map((name) => storeOf(stores, name));
  const [going, goingParameters] = await Promise.all([operations!.withAnyOf(versionId, GOING_AWAY), parameters!.withAnyOf(versionId, GOING_AWAY)]);
  const owned = (field: string) => [...new Set(goingParameters.map((parameter) => parameter[field]).filter((id): id is string => typeof id === 'string'))];
  const [owners, onPaths] = await Promise.all([
    operations!.withIds(versionId, owned('operationId')),
    owned('pathId').length > 0 ? operations!.matching(versionId, { pathId: owned('pathId') }) : Promise.resolve([]),
  ]);
  const all = [...new Map([...going, ...owners, ...onPaths].map((operation): [string, CatalogRecord] => [operation.id, operation])).values()];
  return { operations: all, parameters: goingParameters, paths: await paths!.withIds(versionId, all.map((operation) => String(operation['pathId']))) };
}
