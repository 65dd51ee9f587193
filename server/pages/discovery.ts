// GET /.well-known/api-catalog (RFC 9727): a linkset with one entry per service of each version
// the credential reaches, pointing at its OpenAPI export (`service-desc`, the interface's route)
// and its page (`service-doc`). Without a credential it is the interface's 401.
import type { RequestHandler } from 'express';
import { Unauthorized } from '../errors.ts';
import { nameRoute } from '../http/request-log.ts';
import type { PageCatalog } from './catalog.ts';
import { pageUrls } from './urls.ts';
import type { Visitors } from './visitors.ts';

export const WELL_KNOWN_API_CATALOG = '/.well-known/api-catalog';
const LINKSET = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';

export function discoveryRoute(visitors: Visitors, catalog: PageCatalog): RequestHandler {
  return async (req, res) => {
    nameRoute(req, WELL_KNOWN_API_CATALOG);
    const visitor = await visitors.of(req, res);
    if (!visitor) throw new Unauthorized();
    const origin = `${req.protocol}://${req.headers.host ?? 'localhost'}`;
    const linkset: Array<Record<string, unknown>> = [];
    for (const { project, versions } of await catalog.projects(visitor.credential)) {
      for (const { type, slug } of versions) {
        const version = await catalog.version(visitor.credential, { projectRef: project.slug, versionType: type, versionSlug: slug });
        const { view } = await catalog.index(version);
        for (const service of view.of('services')) {
          const page = `${origin}${pageUrls.service(version.place, String(service['slug']))}`;
          const exported = `${origin}/v2/catalog/projects/${encodeURIComponent(project.slug)}/${type}/${encodeURIComponent(slug)}/services/${service.id}/openapi`;
          linkset.push({
            anchor: page,
            'service-desc': [{ href: exported, type: 'application/openapi+json' }],
            'service-doc': [{ href: page, type: 'text/html' }],
          });
        }
      }
    }
    res.set({ 'Cache-Control': 'no-store', Vary: 'Cookie, Authorization' }).type(LINKSET).send(JSON.stringify({ linkset }));
  };
}
