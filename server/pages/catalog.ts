// What the pages read, and the only way they read it: a version or project reached through the
// pipeline's stages (pipeline/stages.ts: address checked, resolved, authorized for read, within
// DB_TIMEOUT_MS), then the views the interface and MCP answer from: the search index and its
// version view (search/), endpoint details, the insights endpoints view, the changes report,
// the OpenAPI export. No store is read here any other way.
import type { Credential } from '../auth/credential.ts';
import { Deadline } from '../pipeline/deadline.ts';
import type { ChangeReport } from '../changes/catalog.ts';
import { compareVersions } from '../changes/routes.ts';
import { exportService } from '../descriptions/export.ts';
import { RecordNotFound } from '../errors.ts';
import { componentRefsIn } from '../json/pointer.ts';
import type { Observations } from '../insights/observations.ts';
import { endpointKey } from '../insights/observations.ts';
import { withObserved } from '../insights/observed.ts';
import { DEFAULT_SINCE_DAYS, endpointsPage, type EndpointItem } from '../insights/view.ts';
import { reachProject, reachVersion, versionAddress, type AddressPart } from '../pipeline/stages.ts';
import type { SchemaRegistry } from '../schemas/registry.ts';
import { endpointDetail, viewFrom, type Name, type VersionView } from '../search/endpoints.ts';
import type { SearchIndexes } from '../search/indexes.ts';
import type { VersionIndex } from '../search/ranking.ts';
import type { CatalogRecord, RecordStore } from '../store/records.ts';
import type { Tenancy } from '../tenancy/tenancy.ts';
import type { ServiceParts } from '../descriptions/service-parts.ts';
import type { Project } from '../tenancy/projects.ts';
import type { Version } from '../tenancy/versions.ts';
import type { VersionResolver } from '../pipeline/resolve.ts';
import type { ResolvedVersion } from '../routes/route.ts';
import type { VersionPlace } from './urls.ts';
import { operationNeighbourhood, operationsOfPaths } from '../views/operation-records.ts';
import { inPageOrder, type Listed } from './navigation.ts';
import { serviceScoped } from '../views/service-records.ts';
import { serviceBySlug } from '../views/services.ts';

export interface CatalogParts {
  schemas: SchemaRegistry;
  tenancy: Tenancy;
  versions: VersionResolver;
  stores: ReadonlyMap<string, RecordStore>;
  searchIndexes: SearchIndexes;
  observations: Observations;
  /** What imports keep beside each Service record, laid back into the service's export. */
  serviceParts: ServiceParts;
  dbTimeoutMs: number;
  /** A service's stored lint (server/lint/, lent by rooms.ts): its status and findings, never computed on a read. */
  lintOf?: (versionId: string, service: { id: string; slug: string }) => Promise<ServiceLint>;
  /** The service's stored score card as the interface answers it (scores/routes.ts), when the catalog scores. */
  scoreCard?: (versionId: string, service: CatalogRecord) => Promise<Record<string, unknown>>;
}

/** What the service page shows of a service's lint. */
export interface ServiceLint {
  status: string;
  timedOutAfterMs?: number;
  counts?: Record<string, number>;
  findings?: { code: string; severity: string; message: string; path: string; operation?: { method: string; path: string } }[];
}

/** A version a page shows: resolved and authorized, with the place its pages live at. */
export interface ReachedVersion extends ResolvedVersion {
  place: VersionPlace;
  project: Project;
}

export class PageCatalog {
  readonly #parts: CatalogParts;

  constructor(parts: CatalogParts) {
    this.#parts = parts;
  }

  /** The service's score card, or undefined when the catalog has no scores. */
  async scoreCard(versionId: string, service: CatalogRecord): Promise<Record<string, unknown> | undefined> {
    return this.#parts.scoreCard?.(versionId, service);
  }

  /** The service's stored lint, when the catalog lints. */
  async lint(versionId: string, service: { id: string; slug: string }): Promise<ServiceLint | undefined> {
    return this.#parts.lintOf?.(versionId, service);
  }

  /** The version the route's parameters name, if the credential may read it (else the interface's 400 or 403). */
  async version(credential: Credential, params: Readonly<Record<string, string>>): Promise<ReachedVersion> {
    const { schemas, versions, tenancy } = this.#parts;
    const reach = { credential, access: 'read' as const, versions, deadline: new Deadline(this.#parts.dbTimeoutMs) };
    const resolved = await reachVersion(versionAddress(schemas, 'P', (part: AddressPart) => params[part] ?? ''), reach);
    const project = (await reach.deadline.bound(() => tenancy.projects.find(resolved.projectId)))!;
    return { ...resolved, project, place: { project: project.slug, type: params['versionType']!, slug: params['versionSlug']! } };
  }

  /** The projects the credential reaches, each with its versions (branches and environments). */
  async projects(credential: Credential): Promise<Array<{ project: Project; versions: Version[] }>> {
    const { tenancy, versions } = this.#parts;
    const deadline = new Deadline(this.#parts.dbTimeoutMs);
    const candidates = credential.projects === 'all'
      ? await deadline.bound(() => tenancy.projects.list())
      : (await Promise.all([...credential.projects].map((id) => deadline.bound(() => tenancy.projects.find(id))))).filter((project) => project !== null);
    const reached: Array<{ project: Project; versions: Version[] }> = [];
    for (const project of candidates.sort((a, b) => a.slug.localeCompare(b.slug))) {
      const reach = { credential, access: 'read' as const, versions, deadline };
      const allowed = await reachProject(project.id, reach).then(() => true, () => false);
      if (allowed) reached.push({ project, versions: await deadline.bound(() => tenancy.versions.list(project.id)) });
    }
    return reached;
  }

  /** The versions of a reached version's project, for the switch between branches and environments. */
  async siblings(version: ReachedVersion): Promise<Version[]> {
    return new Deadline(this.#parts.dbTimeoutMs).bound(() => this.#parts.tenancy.versions.list(version.projectId));
  }

  /** The version's search index (built on the first read after a write, as for `GET …/search`). */
  async index(version: ResolvedVersion): Promise<VersionIndex> {
    return this.#parts.searchIndexes.of(version.versionId);
  }

  /**
   * What an operation's page shows of its version, as a view: the service of this slug, its
   * paths, the operation and the records it names, read for it alone
   * (views/operation-records.ts), so that a page costs what its operation holds, on a fresh
   * process too. Its previous and next come from the service's listing (listedAround).
   */
  async operationView(version: ResolvedVersion, slug: string, name: string): Promise<VersionView> {
    const deadline = new Deadline(this.#parts.dbTimeoutMs);
    const read = await deadline.bound(() => operationNeighbourhood(this.#parts.stores, version.versionId, slug, name, { nearby: false }));
    return viewFrom(version.versionId, read as Array<[Name, CatalogRecord[]]>);
  }

  /** `GET …/search`'s hits for these options: the same ranking, each hit with what was observed of it. */
  async search(version: ResolvedVersion, options: { query: string; limit: number; service?: string }): Promise<Array<Record<string, unknown>>> {
    const { service, ...rest } = options;
    const serviceId = service === undefined ? undefined : this.service((await this.index(version)).view, service).id;
    const { hits } = await this.#parts.searchIndexes.search(version.versionId, { ...rest, ...(serviceId !== undefined && { serviceId }) });
    return withObserved(this.#parts.observations, version.versionId, hits);
  }

  /** The insights endpoints view of these services: each documented operation's status, and the shadow endpoints. */
  async traffic(version: ResolvedVersion, view: VersionView, serviceIds: readonly string[]): Promise<EndpointItem[]> {
    const chosen = new Set(serviceIds);
    const services = view.of('services').filter((service) => chosen.has(service.id));
    const paths = view.of('paths').filter((path) => chosen.has(String(path['serviceId'])));
    const pathIds = new Set(paths.map((path) => path.id));
    const operations = view.of('operations').filter((operation) => pathIds.has(String(operation['pathId'])));
    const observations = serviceIds.length === 0 ? [] : await this.#parts.observations.of(version.versionId, serviceIds);
    const since = new Date(Date.now() - DEFAULT_SINCE_DAYS * 86_400_000);
    return endpointsPage({ services, paths, operations }, observations, { since, limit: Number.MAX_SAFE_INTEGER }).items;
  }

  /**
   * One page of a service's operations, by path then method, each with its status in the
   * insights endpoints view, and the service's shadow endpoints: the order is kept per search
   * view (made once per version revision: Graph beta's 22,000 operations sorted on every page
   * took most of its time), the statuses made for the page's operations alone from the
   * service's observations (traffic is no write: it is read on every page).
   */
  async servicePage(version: ResolvedVersion, view: VersionView, service: CatalogRecord, page: { start: number; size: number; only?: (listed: Listed) => boolean }): Promise<{ total: number; items: EndpointItem[]; shadow: EndpointItem[] }> {
    const listing = listingOf(view, service);
    const listed = page.only ? listing.operations.filter(page.only) : listing.operations;
    const shown = listed.slice(page.start, page.start + page.size);
    const ids = new Set(shown.map(({ operation }) => operation.id));
    const observations = await this.#parts.observations.of(version.versionId, [service.id]);
    // Each observation is the documented operation's that owns its endpoint, else a shadow endpoint.
    const owned = observations.filter((observation) => ids.has(listing.owners.get(endpointKey(service.id, observation.method, observation.path)) ?? ''));
    const shadows = observations.filter((observation) => !listing.owners.has(endpointKey(service.id, observation.method, observation.path)));
    const since = new Date(Date.now() - DEFAULT_SINCE_DAYS * 86_400_000);
    const inViewOrder = [...shown].sort((a, b) => a.order - b.order);
    const { items } = endpointsPage({
      services: [service], paths: [...new Map(inViewOrder.map(({ path }) => [path.id, path])).values()], operations: inViewOrder.map(({ operation }) => operation),
    }, [...owned, ...shadows], { since, limit: Number.MAX_SAFE_INTEGER });
    const byId = new Map(items.filter((item) => item.operation !== null).map((item) => [item.operation!.id, item]));
    return { total: listed.length, items: shown.map(({ operation }) => byId.get(operation.id)!).filter((item) => item !== undefined), shadow: items.filter((item) => item.operation === null) };
  }

  /** The insights endpoints view of one operation of the service: its status, count and last call. */
  async operationTraffic(version: ResolvedVersion, view: VersionView, service: CatalogRecord, operation: CatalogRecord): Promise<EndpointItem | undefined> {
    const path = view.byId('paths', operation['pathId']);
    const observations = await this.#parts.observations.of(version.versionId, [service.id]);
    const since = new Date(Date.now() - DEFAULT_SINCE_DAYS * 86_400_000);
    const { items } = endpointsPage({ services: [service], paths: path ? [path] : [], operations: [operation] }, observations, { since, limit: Number.MAX_SAFE_INTEGER });
    return items.find((item) => item.operation?.id === operation.id);
  }

  /** The service's operations in page order, from the version's search view (the service page). */
  listed(view: VersionView, service: CatalogRecord): readonly Listed[] {
    return listingOf(view, service).operations;
  }

  /**
   * The service's operations in page order for an operation page's side panel: the view holds
   * the service and all its paths (operationNeighbourhood), the operations are read by their
   * paths with the listed fields alone (views/operation-records.ts), and no search index.
   */
  async listedAround(version: ResolvedVersion, view: VersionView, service: CatalogRecord): Promise<readonly Listed[]> {
    const paths = view.of('paths').filter((path) => path['serviceId'] === service.id);
    return new Deadline(this.#parts.dbTimeoutMs).bound(async () => inPageOrder(await operationsOfPaths(this.#parts.stores.get('operations')!, version.versionId, paths), paths));
  }

  /** An operation as MCP's get_endpoint gives it: hit form, parameters, bodies, responses, schemas, its extension kinds' records. */
  async operation(view: VersionView, operation: CatalogRecord): Promise<Record<string, unknown>> {
    const { endpoint, parameters, requests, responses, components, extended } = await endpointDetail(this.#parts.stores, view, operation);
    return { ...endpoint, operation, parameters, requests, responses, extended, schemas: referencedSchemas(components, [...parameters, ...requests, ...responses]) };
  }

  /** The version's service of this slug, one indexed read (no search index built for it); undefined when there is none. */
  async serviceBySlug(version: ResolvedVersion, slug: string): Promise<CatalogRecord | undefined> {
    return new Deadline(this.#parts.dbTimeoutMs).bound(() => serviceBySlug(this.#parts.stores.get('services')!, version.versionId, slug));
  }

  /** The service a page's address names by slug, among the version's (its 404 otherwise). */
  service(view: VersionView, slug: string): CatalogRecord {
    return view.of('services').find((record) => record['slug'] === slug) ?? this.noSuchService();
  }

  /** A page's service is not in its version: the interface's 404. */
  noSuchService(): never {
    throw new RecordNotFound(this.#parts.stores.get('services')!.collection.notFound);
  }

  /** The service's OpenAPI document, as `GET …/services/{id}/openapi` exports it. */
  async exported(version: ResolvedVersion, service: CatalogRecord): Promise<Record<string, unknown>> {
    return exportService(serviceScoped(this.#parts.stores, version.versionId, service), version.versionId, service, await this.#parts.serviceParts.of(version.versionId, service.id));
  }

  /**
   * The changes report for one service (slug or id), from `before` to `after` (both reached):
   * the interface's own (`GET …/changes?service=`, changes/routes.ts).
   */
  async changes(before: ResolvedVersion, after: ResolvedVersion, service: string): Promise<ChangeReport> {
    const { schemas, stores, tenancy } = this.#parts;
    return compareVersions({ schemas, stores, revisions: tenancy.revisions }, before, after, service);
  }
}


/** A service's operations in page order (by path, then method), and which operation owns each endpoint. */
interface Listing {
  operations: Array<{ operation: CatalogRecord; path: CatalogRecord; order: number }>;
  /** Endpoint key (insights/observations.ts) → the id of the first operation in view order that has it, as the insights view matches them. */
  owners: Map<string, string>;
}

const listings = new WeakMap<VersionView, Map<string, Listing>>();

/** The service's listing, made once per view (a view is made anew after every write the search index reads). */
function listingOf(view: VersionView, service: CatalogRecord): Listing {
  let ofView = listings.get(view);
  if (!ofView) {
    ofView = new Map();
    listings.set(view, ofView);
  }
  let listing = ofView.get(service.id);
  if (!listing) {
    const paths = new Map(view.of('paths').filter((path) => path['serviceId'] === service.id).map((path) => [path.id, path]));
    const operations = view.of('operations').flatMap((operation, order) => {
      const path = paths.get(String(operation['pathId']));
      return path ? [{ operation, path, order, method: String(operation['method']).toUpperCase(), text: String(path['path']) }] : [];
    });
    const owners = new Map<string, string>();
    for (const { operation, method, text } of operations) {
      const key = endpointKey(service.id, method, text);
      if (!owners.has(key)) owners.set(key, operation.id);
    }
    operations.sort((a, b) => a.text.localeCompare(b.text) || a.method.localeCompare(b.method));
    listing = { operations: operations.map(({ operation, path, order }) => ({ operation, path, order })), owners };
    ofView.set(service.id, listing);
  }
  return listing;
}

/** The component schemas the records' schemas reference, and those they reference in turn, by name (null: named but missing). */
function referencedSchemas(components: ReadonlyMap<string, unknown>, records: readonly CatalogRecord[]): Record<string, unknown> {
  const found: Record<string, unknown> = {};
  const pending = records.flatMap((record) => componentRefsIn(record['schema'], 'schemas'));
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (name in found) continue;
    found[name] = components.get(name) ?? null;
    pending.push(...componentRefsIn(components.get(name), 'schemas'));
  }
  return found;
}
