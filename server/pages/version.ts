// A version's page (its services with operation counts and traffic, a search box, the switch
// between the project's branches and environments) and the search results page, ranked as
// `GET …/search` ranks, with the same plain GET form and a small script for results as you type.
import type { Request } from 'express';
import { InvalidRequest } from '../errors.ts';
import { searchOptions } from '../search/routes.ts';
import type { ReachedVersion, PageCatalog } from './catalog.ts';
import type { PageWork } from './work.ts';
import { pageUrls } from './urls.ts';
import { securityLabel } from './operation-view.ts';
import { operationTitle } from '../search/title.ts';

export const versionPage: PageWork = async (req, visitor, catalog) => {
  const version = await catalog.version(visitor.credential, params(req));
  const index = await catalog.index(version);
  const { view } = index;
  const services = [...view.of('services')].sort((a, b) => String(a['name']).localeCompare(String(b['name'])));
  const traffic = await catalog.traffic(version, view, services.map((service) => service.id));
  const rows = services.map((service) => {
    const mine = traffic.filter((item) => item.service.id === service.id);
    const count = (status: string) => mine.filter((item) => item.status === status).length;
    return {
      // Few descriptions give `info.summary`: the description's first sentence, as a hit's title falls back to it.
      name: String(service['name'] ?? service['slug']), slug: String(service['slug']), summary: operationTitle({ summary: service['summary'], description: service['description'] }) ?? '',
      href: pageUrls.service(version.place, String(service['slug'])),
      operations: mine.filter((item) => item.operation !== null).length,
      traffic: { active: count('active'), zombie: count('zombie'), orphan: count('orphan'), unobserved: count('unobserved'), shadow: count('shadow') },
    };
  });
  return {
    template: 'version', title: versionTitle(version),
    data: { ...await frameOf(version, catalog), services: rows, searchAction: pageUrls.search(version.place), query: '', script: 'search.js' },
  };
};

export const searchPage: PageWork = async (req, visitor, catalog) => {
  const version = await catalog.version(visitor.credential, params(req));
  const q = typeof req.query['q'] === 'string' ? req.query['q'] : '';
  const service = typeof req.query['service'] === 'string' && req.query['service'] !== '' ? req.query['service'] : undefined;
  let hits: Array<Record<string, unknown>> = [];
  let problem: string | undefined;
  if (q.trim() !== '') {
    try {
      hits = await catalog.search(version, searchOptions({ q, service }));
    } catch (error) {
      if (!(error instanceof InvalidRequest)) throw error;
      problem = 'Type a word or two (letters or digits) to search.';
    }
  }
  const results = hits.map((hit) => {
    const operation = hit['operation'] as Record<string, unknown>;
    const owner = hit['service'] as { slug: string; name?: string } | null;
    const observed = hit['observed'] as { count: number; lastSeenAt: string } | null;
    return {
      method: String(operation['method']).toUpperCase(), path: (hit['path'] as { path: string }).path,
      title: operation['summary'] ?? operation['operationId'] ?? '', deprecated: operation['deprecated'] === true,
      service: owner ? String(owner.name ?? owner.slug) : '',
      href: owner ? pageUrls.operation(version.place, owner.slug, String(operation['operationId'] ?? operation['id'])) : '',
      credential: securityLabel(hit['security'] as unknown[], hit['securityDeclared'] === true),
      observed: observed ? `${observed.count} calls, last ${observed.lastSeenAt.slice(0, 10)}` : 'not observed',
    };
  });
  return {
    template: 'search', title: q ? `Search: ${q}` : `Search ${versionTitle(version)}`,
    data: { ...await frameOf(version, catalog), query: q, searchAction: pageUrls.search(version.place), results, searched: q.trim() !== '' && !problem, problem, script: 'search.js' },
  };
};

export function params(req: Request): Record<string, string> {
  return req.params as Record<string, string>;
}

export function versionTitle(version: ReachedVersion): string {
  return `${version.project.name} · ${version.place.type} ${version.place.slug}`;
}

/** What the version's pages share: the breadcrumbs and the switch between the project's versions. */
export async function frameOf(version: ReachedVersion, catalog: PageCatalog): Promise<Record<string, unknown>> {
  const versions = (await catalog.siblings(version)).map((other) => ({
    label: `${other.type} ${other.slug}`, value: `${other.type}/${other.slug}`, current: other.type === version.place.type && other.slug === version.place.slug,
    href: pageUrls.version({ project: version.project.slug, type: other.type, slug: other.slug }),
  }));
  return {
    versionName: versionTitle(version), versions,
    crumbs: [{ label: 'Projects', href: pageUrls.home() }, { label: versionTitle(version), href: pageUrls.version(version.place) }],
  };
}
