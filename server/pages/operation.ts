// An operation's page: method and full URL, title and description, parameters, bodies and
// responses with readable schemas, how to call it (credentials, samples), its traffic status, and
// what changed for it against another version of the project (from the changes report).
import type { Request } from 'express';
import { RecordNotFound } from '../errors.ts';
import { isObject } from '../json/values.ts';
import { earlierMadeUpName } from '../ownership/operation-names.ts';
import type { VersionView } from '../search/endpoints.ts';
import type { CatalogRecord } from '../store/records.ts';
import type { ExtendedRecords } from '../views/operation-records.ts';
import type { ReachedVersion, PageCatalog } from './catalog.ts';
import { baseUrl, howToCall, NO_CREDENTIAL, schemaRows, schemaTree, serversOf } from './operation-view.ts';
import { filterAsked, navigationOf, neighboursIn } from './navigation.ts';
import { responseExample, samplesOf } from './samples.ts';
import type { PageWork } from './work.ts';
import type { Visitor } from './visitors.ts';
import { pageUrls } from './urls.ts';
import { frameOf, params } from './version.ts';

export const operationPage: PageWork = async (req, visitor, catalog) => {
  const version = await catalog.version(visitor.credential, params(req));
  const view = await catalog.operationView(version, req.params['service'] as string, req.params['operation'] as string);
  const service = catalog.service(view, req.params['service'] as string);
  const operation = operationNamed(view, service, req.params['operation'] as string);
  const detail = await catalog.operation(view, operation);
  const path = String((detail['path'] as { path: string }).path);
  const method = String(operation['method']).toUpperCase();
  const servers = serversOf(view, detail['servers'] as string[]);
  const security = detail['security'] as unknown[];
  const parameters = detail['parameters'] as Array<Record<string, unknown>>;
  const requests = detail['requests'] as Array<Record<string, unknown>>;
  const alternatives = howToCall(view, security);
  const base = baseUrl(servers);
  const url = `${base}${path}`;
  const traffic = await catalog.operationTraffic(version, view, service, operation);
  const serviceSlug = String(service['slug']);
  const frame = await frameOf(version, catalog);
  const listed = await catalog.listedAround(version, view, service);
  const { previous, next } = neighboursIn(listed, operation);
  const operationHref = (name: string) => pageUrls.operation(version.place, serviceSlug, name);
  const nav = navigationOf(listed, {
    filter: filterAsked(req.query['filter']), current: operation.id, action: operationHref(String(operation['operationId'] ?? operation.id)),
    service: pageUrls.service(version.place, serviceSlug), hrefOf: operationHref,
  });
  const responses = detail['responses'] as Array<Record<string, unknown>>;
  const linkTo = (other: CatalogRecord | undefined) => other && {
    label: `${String(other['method']).toUpperCase()} ${String(view.byId('paths', other['pathId'])?.['path'] ?? '')}`,
    href: pageUrls.operation(version.place, serviceSlug, String(other['operationId'] ?? other.id)),
  };
  return {
    template: 'operation', title: `${method} ${path}`,
    data: {
      ...frame,
      crumbs: [...frame['crumbs'] as object[], { label: String(service['name'] ?? serviceSlug), href: pageUrls.service(version.place, serviceSlug) }],
      method, path, url, servers, operationId: operation['operationId'] ?? operation.id,
      summary: operation['summary'] ?? '', description: operation['description'] ?? '', deprecated: operation['deprecated'] === true, sunset: operation['sunset'] ?? '',
      parameters: parameters.map((parameter) => ({
        name: parameter['name'], in: parameter['in'], required: parameter['required'] === true, deprecated: parameter['deprecated'] === true, sunset: parameter['sunset'] ?? '',
        // Spotify describes its parameters in their schemas.
        type: schemaRows(parameter['schema'])[0]?.type ?? 'any', description: parameter['description'] ?? (isObject(parameter['schema']) ? parameter['schema']['description'] : undefined) ?? '',
      })),
      requests: requests.map((request) => ({ mediaType: request['contentMediaType'] ?? '', description: request['description'] ?? '', ...shown(request['schema']) })),
      responses: responses.map((response) => ({
        status: response['statusCode'] ?? 'default', mediaType: response['contentMediaType'] ?? '', description: response['description'] ?? '', ...shown(response['schema']),
      })),
      schemas: Object.entries(detail['schemas'] as Record<string, unknown>).map(([name, schema]) => ({ name, ...shown(schema) })),
      extended: (detail['extended'] as ExtendedRecords[]).map(extendedShown),
      previous: linkTo(previous), next: linkTo(next), nav, script: 'nav.js',
      examples: examplesOf(responses, detail['schemas'] as Record<string, unknown>),
      alternatives, noCredential: detail['securityDeclared'] === true ? NO_CREDENTIAL.declared : NO_CREDENTIAL.undeclared,
      samples: samplesOf({ method, base, path, parameters, schemes: (security[0] ?? []) as never, requests, schemas: detail['schemas'] as Record<string, unknown> }),
      traffic: traffic ? { status: traffic.status, count: traffic.count, lastSeenAt: traffic.lastSeenAt ?? 'never' } : undefined,
      ...await changesFor(req, visitor, catalog, version, serviceSlug, method, path),
    },
  };
};

/** A kind's records mapped from an extension on the operation (`x-codeSamples`…), each as its fields and their values as text. */
function extendedShown({ kind, records }: ExtendedRecords): Record<string, unknown> {
  return {
    id: `kind-${kind.collection.name}`, title: kind.collection.title, extension: kind.extension,
    items: records.map((record) => kind.fields.filter((field) => record[field] !== undefined)
      .map((field) => ({ name: field, value: typeof record[field] === 'string' ? record[field] : JSON.stringify(record[field], null, 2) }))),
  };
}

/**
 * The operation by operationId within the service (as links make them), else by record id, else
 * by the `<method> <path>` name operations without an operationId had before (old links); else 404.
 */
export function operationNamed(view: VersionView, service: CatalogRecord, name: string): CatalogRecord {
  const paths = new Set(view.of('paths').filter((path) => path['serviceId'] === service.id).map((path) => path.id));
  const mine = view.of('operations').filter((operation) => paths.has(String(operation['pathId'])));
  const earlier = earlierMadeUpName(name);
  const found = mine.find((operation) => operation['operationId'] === name) ?? mine.find((operation) => operation.id === name)
    ?? (earlier && mine.find((operation) => operation['method'] === earlier.method && view.byId('paths', operation['pathId'])?.['path'] === earlier.path));
  if (!found) throw new RecordNotFound('Operation not found');
  return found;
}

/** With `?against=type/slug`: the changes report's entries for this operation, from that version to this one. */
async function changesFor(req: Request, visitor: Visitor, catalog: PageCatalog, version: ReachedVersion, service: string, method: string, path: string): Promise<Record<string, unknown>> {
  const against = typeof req.query['against'] === 'string' ? req.query['against'] : '';
  const [type, slug] = against.split('/');
  if (!type || !slug) return { against: '', changes: undefined };
  const other = await catalog.version(visitor.credential, { projectRef: version.project.slug, versionType: type, versionSlug: slug });
  const report = await catalog.changes(other, version, service).catch((error: unknown) => {
    if (error instanceof RecordNotFound) return { summary: { breaking: 0, nonBreaking: 0, planned: 0 }, changes: [] };
    throw error;
  });
  const changes = report.changes.filter((change) => change.operation?.method.toUpperCase() === method && change.operation.path === path)
    .sort((a, b) => (a.level === b.level ? 0 : a.level === 'breaking' ? -1 : 1));
  return { against, changes };
}

interface ResponseExample { status: string; mediaType: string; code: string; open: boolean }

/**
 * An example body for each response status that has one (its first media type that does), in
 * the description's order, shown as tabs: the first success's open, else the first's.
 */
function examplesOf(responses: ReadonlyArray<Record<string, unknown>>, schemas: Record<string, unknown>): ResponseExample[] {
  const byStatus = new Map<string, ResponseExample>();
  for (const response of responses) {
    const status = String(response['statusCode'] ?? 'default');
    if (byStatus.has(status)) continue;
    const code = responseExample(response, schemas);
    if (code !== undefined) byStatus.set(status, { status, mediaType: String(response['contentMediaType'] ?? ''), code, open: false });
  }
  const examples = [...byStatus.values()];
  const shown = examples.find((example) => example.status.startsWith('2')) ?? examples[0];
  if (shown) shown.open = true;
  return examples;
}

/** A schema as the twin lists it (rows) and as the page shows it (a tree). */
function shown(schema: unknown): { rows: ReturnType<typeof schemaRows>; tree: ReturnType<typeof schemaTree> } {
  const rows = schemaRows(schema);
  return { rows, tree: schemaTree(rows) };
}
