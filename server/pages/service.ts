// A service's pages: its operations by tag and path with method badges, deprecated marks and
// traffic status, its shadow endpoints and servers; its changes against another version,
// breaking first; its OpenAPI export opened with the session; and Swagger UI fed that export.
import { scoreCardOf } from './score-card.ts';
import type { Request, Response } from 'express';
import { stringify as toYaml } from 'yaml';
import type { PageCatalog } from './catalog.ts';
import type { PageWork } from './work.ts';
import { filterAsked, matchesFilter, navigationOf } from './navigation.ts';
import { serversOf } from './operation-view.ts';
import { ownershipOf } from './ownership.ts';
import { REFERENCE_POLICY } from './render.ts';
import { pageUrls } from './urls.ts';
import { frameOf, params } from './version.ts';
import type { Visitor } from './visitors.ts';

/** Operations on one page of a service. */
export const OPERATIONS_PER_PAGE = 200;
/** Lint findings a service page lists, errors first; the rest are behind the lint route. */
export const FINDINGS_SHOWN = 50;
const SEVERITY_ORDER = ['error', 'warn', 'info', 'hint'];

/** The service the page's address names, in the version it names, with the version's search view. */
async function serviceAt(req: Request, visitor: Visitor, catalog: PageCatalog) {
  const version = await catalog.version(visitor.credential, params(req));
  const { view } = await catalog.index(version);
  const service = catalog.service(view, req.params['service'] as string);
  return { version, view, service, slug: String(service['slug']) };
}

export const servicePage: PageWork = async (req, visitor, catalog) => {
  const { version, view, service, slug } = await serviceAt(req, visitor, catalog);
  // Paged, so that a service of 22,000 operations (Microsoft Graph beta) is still a light page.
  const asked = Number(req.query['page'] ?? 1);
  const askedPage = Number.isInteger(asked) && asked >= 1 ? asked : 1;
  // `?filter=` narrows the list as it narrows the side panel.
  const filter = filterAsked(req.query['filter']);
  const tag = filterAsked(req.query['tag']);
  const only = filter.trim() === '' && tag === '' ? undefined : (listed: Parameters<typeof matchesFilter>[0]) => matchesFilter(listed, filter, tag);
  let listed = await catalog.servicePage(version, view, service, { start: (askedPage - 1) * OPERATIONS_PER_PAGE, size: OPERATIONS_PER_PAGE, ...(only && { only }) });
  const pages = Math.max(1, Math.ceil(listed.total / OPERATIONS_PER_PAGE));
  // Past the last page: the first, as before.
  const pageNumber = askedPage <= pages ? askedPage : 1;
  if (pageNumber !== askedPage) listed = await catalog.servicePage(version, view, service, { start: 0, size: OPERATIONS_PER_PAGE, ...(only && { only }) });
  const shown = listed.items.map((item) => {
    const record = view.byId('operations', item.operation!.id);
    return {
      method: item.method, path: item.path, deprecated: item.operation!.deprecated, sunset: record?.['sunset'] ?? '', status: item.status,
      lastSeenAt: item.lastSeenAt ?? 'never', summary: record?.['summary'] ?? '',
      tags: Array.isArray(record?.['tags']) && record['tags'].length > 0 ? record['tags'].map(String) : ['(untagged)'],
      href: pageUrls.operation(version.place, slug, String(item.operation!.operationId !== 'undefined' ? item.operation!.operationId : item.operation!.id)),
    };
  });
  const tags = [...new Set(shown.flatMap((operation) => operation.tags))].sort();
  const here = pageUrls.service(version.place, slug);
  const pageAt = (number: number) => `${here}?${new URLSearchParams({ page: String(number), ...(filter && { filter }), ...(tag && { tag }) }).toString()}`;
  const nav = navigationOf(catalog.listed(view, service), {
    filter, tag, action: here, service: here, hrefOf: (name) => pageUrls.operation(version.place, slug, name),
  });
  const frame = await frameOf(version, catalog);
  const lint = await catalog.lint(version.versionId, { id: service.id, slug });
  const findings = [...lint?.findings ?? []].sort((a, b) => SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity));
  const score = await scoreCardOf(catalog, version, view, service, slug);
  const serverUrls = view.of('servers').filter((server) => server['serviceId'] === service.id).map((server) => String(server['url']));
  return {
    template: 'service', title: String(service['name'] ?? slug),
    data: {
      ...frame,
      crumbs: [...frame['crumbs'] as object[], { label: String(service['name'] ?? slug), href: pageUrls.service(version.place, slug) }],
      name: service['name'] ?? slug, slug, summary: service['summary'] ?? '', description: service['description'] ?? '',
      ownership: ownershipOf(service),
      groups: tags.map((tag) => ({ tag, operations: shown.filter((operation) => operation.tags.includes(tag)) })),
      paging: {
        page: pageNumber, pages, total: listed.total,
        previous: pageNumber > 1 ? pageAt(pageNumber - 1) : undefined, next: pageNumber < pages ? pageAt(pageNumber + 1) : undefined,
      },
      filter, tag, nav, script: 'nav.js', score,
      shadow: listed.shadow.map((item) => ({ method: item.method, path: item.path, count: item.count, lastSeenAt: item.lastSeenAt ?? '' })),
      servers: serversOf(view, serverUrls),
      lint: lint && {
        status: lint.status, timedOutAfterMs: lint.timedOutAfterMs, counts: lint.counts ?? { error: 0, warn: 0, info: 0, hint: 0 }, total: findings.length,
        findings: findings.slice(0, FINDINGS_SHOWN).map((finding) => ({ ...finding, where: finding.operation ? `${finding.operation.method} ${finding.operation.path}` : finding.path || '/' })),
      },
      links: {
        json: pageUrls.exportApi(version.place, slug, 'json'), yaml: pageUrls.exportApi(version.place, slug, 'yaml'),
        reference: pageUrls.reference(version.place, slug), changes: pageUrls.changes(version.place, slug), all: here,
      },
    },
  };
};

export const changesPage: PageWork = async (req, visitor, catalog) => {
  const version = await catalog.version(visitor.credential, params(req));
  const slug = req.params['service'] as string;
  const service = await catalog.serviceBySlug(version, slug);
  const frame = await frameOf(version, catalog);
  const against = typeof req.query['against'] === 'string' ? req.query['against'] : '';
  const [type, otherSlug] = against.split('/');
  let changes: Array<{ level: string; message: string; method: string; path: string }> | undefined;
  if (type && otherSlug) {
    const other = await catalog.version(visitor.credential, { projectRef: version.project.slug, versionType: type, versionSlug: otherSlug });
    const report = await catalog.changes(other, version, slug);
    changes = report.changes.map((change) => ({ level: change.level, message: change.message, method: change.operation?.method.toUpperCase() ?? '', path: change.operation?.path ?? '' }))
      .sort((a, b) => (a.level === b.level ? 0 : a.level === 'breaking' ? -1 : 1));
  } else if (!service) {
    catalog.noSuchService();
  }
  return {
    template: 'changes', title: `Changes of ${String(service?.['name'] ?? slug)}`,
    data: {
      ...frame,
      crumbs: [...frame['crumbs'] as object[], { label: String(service?.['name'] ?? slug), href: pageUrls.service(version.place, slug) }],
      name: service?.['name'] ?? slug, against, changes,
      breaking: changes?.filter((change) => change.level === 'breaking').length ?? 0,
    },
  };
};

export const referencePage: PageWork = async (req, visitor, catalog) => {
  const { version, service, slug } = await serviceAt(req, visitor, catalog);
  const frame = await frameOf(version, catalog);
  const serviceUrl = pageUrls.service(version.place, slug);
  return {
    template: 'reference', policy: REFERENCE_POLICY, title: `${String(service['name'] ?? slug)} reference`,
    data: {
      ...frame, crumbs: [...frame['crumbs'] as object[], { label: String(service['name'] ?? slug), href: serviceUrl }],
      documentUrl: pageUrls.exportApi(version.place, slug, 'json'), serviceUrl, serviceName: String(service['name'] ?? slug),
    },
  };
};

/** The service's export as JSON or YAML, the interface's export view opened with the session. */
export async function exportedDocument(req: Request, res: Response, visitor: Visitor, catalog: PageCatalog): Promise<void> {
  const format = req.params['format'];
  if (format !== 'json' && format !== 'yaml') {
    res.status(404).type('text/plain').send('Not found');
    return;
  }
  const version = await catalog.version(visitor.credential, params(req));
  const { view } = await catalog.index(version);
  const document = await catalog.exported(version, catalog.service(view, req.params['service'] as string));
  res.set({ 'Cache-Control': 'no-store', Vary: 'Cookie, Authorization' });
  if (format === 'yaml') res.type('application/yaml; charset=utf-8').send(toYaml(document, { aliasDuplicateObjects: false }));
  else res.json(document);
}
