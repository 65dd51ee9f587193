// Finding a catalogued service in a version: by its slug (`petstore`) or by its id (`svc_…`), the
// two forms a service reference takes in routes, tools, pages, imports and reports alike. The
// forms cannot be confused (a slug has no `_`), and each is one indexed read: the slug is the
// services' natural key (collections.json), unique in a version.
import type { CatalogRecord, RecordStore } from '../store/records.ts';

type Services = Pick<RecordStore, 'get' | 'matching' | 'collection'>;

/** The version's service of this slug, or undefined. */
export async function serviceBySlug(services: Pick<RecordStore, 'matching'>, versionId: string, slug: string): Promise<CatalogRecord | undefined> {
  return (await services.matching(versionId, { slug }))[0];
}

/** The version's service this reference names, by id or by slug, or undefined. */
export async function serviceByRef(services: Services, versionId: string, ref: string): Promise<CatalogRecord | undefined> {
  if (isServiceId(services, ref)) return (await services.get(versionId, ref)) ?? undefined;
  return serviceBySlug(services, versionId, ref);
}

/** The service this reference names (id or slug) among records already read (a view's services), or undefined. */
export function serviceAmong(services: readonly CatalogRecord[], ref: string): CatalogRecord | undefined {
  return services.find((service) => service.id === ref || service['slug'] === ref);
}

function isServiceId(services: Pick<RecordStore, 'collection'>, ref: string): boolean {
  return services.collection.checkId(ref).length === 0;
}
