// The pages' addresses, in one place: readable and stable, made of the project's slug, the
// version's type and slug, the service's slug and the operation's operationId (none of which a
// re-import changes), so a link to one operation keeps working.
export interface VersionPlace {
  project: string;
  type: string;
  slug: string;
}

const part = encodeURIComponent;

export const pageUrls = {
  home: () => '/catalog',
  version: (at: VersionPlace) => `/catalog/${part(at.project)}/${part(at.type)}/${part(at.slug)}`,
  search: (at: VersionPlace, query?: string) => `${pageUrls.version(at)}/search${query === undefined ? '' : `?q=${part(query)}`}`,
  service: (at: VersionPlace, service: string) => `${pageUrls.version(at)}/services/${part(service)}`,
  operation: (at: VersionPlace, service: string, operation: string) => `${pageUrls.service(at, service)}/operations/${part(operation)}`,
  changes: (at: VersionPlace, service: string, against?: VersionPlace) =>
    `${pageUrls.service(at, service)}/changes${against ? `?against=${part(`${against.type}/${against.slug}`)}` : ''}`,
  /** The service's OpenAPI export (the interface's export, opened with the session). */
  exportApi: (at: VersionPlace, service: string, format: 'json' | 'yaml') => `${pageUrls.service(at, service)}/openapi.${format}`,
  /** Swagger UI fed this one service's export. */
  reference: (at: VersionPlace, service: string) => `${pageUrls.service(at, service)}/reference`,
};

/** The Express templates of the routes above. */
export const PAGE_ROUTES = {
  home: '/catalog',
  version: '/catalog/:projectRef/:versionType/:versionSlug',
  search: '/catalog/:projectRef/:versionType/:versionSlug/search',
  service: '/catalog/:projectRef/:versionType/:versionSlug/services/:service',
  operation: '/catalog/:projectRef/:versionType/:versionSlug/services/:service/operations/:operation',
  changes: '/catalog/:projectRef/:versionType/:versionSlug/services/:service/changes',
  exportApi: '/catalog/:projectRef/:versionType/:versionSlug/services/:service/openapi.:format',
  reference: '/catalog/:projectRef/:versionType/:versionSlug/services/:service/reference',
} as const;
