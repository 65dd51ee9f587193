// Which of the version's services an incoming description already describes, when the import
// names none: its slug comes from `info.title`, so a description imported before under another
// slug (`?service=spotify`) would become a second service (`spotify-web-api`) beside the first.
// The same title, or the same servers, say it is the same API; the import answers 409 instead.
import { Conflict } from '../errors.ts';
import { isObject, type JsonObject } from '../json/values.ts';
import type { CatalogRecord, RecordStore } from '../store/records.ts';
import { serviceBySlug } from '../views/services.ts';
import { storeOf } from '../store/stores.ts';

/** The 409 for a document whose title or servers one of the version's other services has, or undefined. */
export async function describedAlready(stores: ReadonlyMap<string, RecordStore>, versionId: string, document: JsonObject, slug: string): Promise<Conflict | undefined> {
  const services = storeOf(stores, 'services');
  // The service of the title's slug is the one this import re-imports into: no second copy.
  if (await serviceBySlug(services, versionId, slug)) return undefined;
  const title = isObject(document['info']) && typeof document['info']['title'] === 'string' ? document['info']['title'] : '';
  const named = title === '' ? [] : await services.matching(versionId, { name: title });
  if (named[0]) return Conflict.describedAlready('/info/title', String(named[0]['slug']), `the title "${title}" is the title of`);
  const urls = serverUrls(document);
  if (urls.length === 0) return undefined;
  const sameServers = await serviceWithServers(storeOf(stores, 'servers'), versionId, urls);
  const holder = sameServers === undefined ? undefined : await services.get(versionId, sameServers);
  return holder ? Conflict.describedAlready('/servers', String(holder['slug']), `the servers (${urls.join(', ')}) are the servers of`) : undefined;
}

/**
 * The document's top-level server URLs, when they name one API: a bare host (`https://management.azure.com`)
 * is one many APIs of a provider share, so servers without a path say nothing.
 */
function serverUrls(document: JsonObject): string[] {
  const urls = (Array.isArray(document['servers']) ? document['servers'] : []).flatMap((server) => (isObject(server) && typeof server['url'] === 'string' ? [server['url']] : []));
  return urls.length > 0 && urls.every((url) => URL.canParse(url) && new URL(url).pathname.replace(/\/+$/, '') !== '') ? [...new Set(urls)].sort() : [];
}

/** The id of a service whose own servers are exactly `urls`, if any. */
async function serviceWithServers(servers: RecordStore, versionId: string, urls: readonly string[]): Promise<string | undefined> {
  const candidates = new Set((await servers.matching(versionId, { url: urls })).flatMap((record) => (typeof record['serviceId'] === 'string' ? [record['serviceId']] : [])));
  for (const serviceId of candidates) {
    const own = (await servers.matching(versionId, { serviceId })).map((record: CatalogRecord) => String(record['url']));
    if (sameSet(own, urls)) return serviceId;
  }
  return undefined;
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a);
  return left.size === new Set(b).size && b.every((item) => left.has(item));
}
