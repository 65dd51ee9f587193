// The stages every caller takes to what it acts on, whatever brought it (an HTTP route through
// server/pipeline/handler.ts, an MCP tool through server/pipeline/tool-call.ts): the address checked by the
// schemas, then the version or project resolved and authorized within the caller's database
// budget. Each stage passes its result on or throws the ApiError the caller reports.
import { authorize, type Access, type Credential } from '../auth/credential.ts';
import type { Deadline } from './deadline.ts';
import { Forbidden, InvalidRequest, RecordNotFound, SERVICE_REF_INVALID, UnknownAddress, type Surface } from '../errors.ts';
import { serviceByRef } from '../views/services.ts';
import type { SchemaRegistry, Check } from '../schemas/registry.ts';
import type { CatalogRecord, RecordStore } from '../store/records.ts';
import type { VersionType } from '../tenancy/versions.ts';
import type { ResolvedVersion, VersionAddress } from '../routes/route.ts';
import type { VersionResolver } from './resolve.ts';

/**
 * A value that passed its schema; otherwise 400 naming it as the caller did (a route or query
 * parameter, a tool argument).
 */
export function checked(check: Check, value: string, name: string): string {
  const problem = check(value)[0];
  if (problem) throw InvalidRequest.field(name, problem.message);
  return value;
}

/** The parts of a version address: the id (family V), or project, type and slug (family P). */
export type AddressPart = 'versionId' | 'projectRef' | 'versionType' | 'versionSlug';

/**
 * A version address each part of which passed its schema. A 400 names the part as `nameOf` says:
 * a route names each of its parameters, a tool the one argument that holds them all.
 */
export function versionAddress(schemas: SchemaRegistry, family: 'V' | 'P', partOf: (part: AddressPart) => string, nameOf: (part: AddressPart) => string = (part) => part): VersionAddress {
  const part = (name: AddressPart, check: Check) => checked(check, partOf(name), nameOf(name));
  if (family === 'V') return { family, versionId: part('versionId', schemas.checkVersionId) };
  return {
    family,
    projectRef: part('projectRef', schemas.checkProjectRef),
    versionType: part('versionType', schemas.checkVersionType) as VersionType,
    versionSlug: part('versionSlug', schemas.checkVersionSlug),
  };
}

/**
 * A version address written as one string (a tool argument, `against`, `copyFrom`): `ver_...` or
 * `project/type/slug`; with `project` (the project at hand, id or slug) `type/slug` too.
 */
export function versionAddressIn(schemas: SchemaRegistry, ref: string, argument: string, project?: string): VersionAddress {
  const given = ref.split('/');
  const parts = given.length === 2 && project !== undefined ? [project, ...given] : given;
  if (parts.length !== 1 && parts.length !== 3) {
    throw InvalidRequest.field(argument, project === undefined ? 'must be a version id or project/type/slug' : 'must be a version id, type/slug or project/type/slug');
  }
  const [projectRef, versionType, versionSlug] = parts as [string, string, string];
  const named: Record<AddressPart, string> = { versionId: ref, projectRef, versionType, versionSlug };
  return versionAddress(schemas, parts.length === 1 ? 'V' : 'P', (part) => named[part], () => argument);
}

/** Who reaches for what, and the budget its lookups are bounded by (DB_TIMEOUT_MS). */
export interface Reach {
  credential: Credential;
  access: Access;
  versions: VersionResolver;
  deadline: Deadline;
  /** Who is told where versions are listed when one is unknown (UnknownAddress); HTTP unless said. */
  surface?: Surface;
}

/**
 * The version at `address`, if the credential may `access` it. Unknown gets the answer out of
 * reach gets, Forbidden, so nothing leaks; nor does the time: a version refused from the
 * resolver's cache costs the lookups of an unknown one. Only a credential that could list what
 * exists is told which part is unknown (unknownAddress). `argument`: the one argument naming
 * the whole address (a tool's `version`), else each part by its route parameter's name.
 */
export async function reachVersion(address: VersionAddress, { credential, access, versions, deadline, surface = 'http' }: Reach, argument?: string): Promise<ResolvedVersion> {
  const cached = versions.isCached(address);
  const { version, projectId } = await deadline.bound(() => versions.find(address));
  if (!version) throw unknownAddress(address, projectId, credential, surface, argument);
  try {
    authorize(credential, version.projectId, access);
  } catch (refusal) {
    if (cached) await deadline.bound(() => versions.lookUpAsIfUncached(address));
    throw refusal;
  }
  return version;
}

/**
 * Why an address found no version, as far as the credential may know: the version missing from
 * a project it reads, or (to a credential that reaches every project) a project or version id
 * that does not exist. Otherwise the plain Forbidden of a version out of reach.
 */
function unknownAddress(address: VersionAddress, projectId: string | null, credential: Credential, surface: Surface, argument: string | undefined): Forbidden | UnknownAddress {
  if (!credential.read) return new Forbidden();
  const everywhere = credential.projects === 'all';
  if (address.family === 'V') return everywhere ? UnknownAddress.versionId(argument ?? 'versionId', address.versionId) : new Forbidden();
  if (projectId === null) return everywhere ? UnknownAddress.project(argument ?? 'projectRef', address.projectRef, surface) : new Forbidden();
  if (!everywhere && !(credential.projects as ReadonlySet<string>).has(projectId)) return new Forbidden();
  return UnknownAddress.version(argument ?? 'versionSlug', address.versionType, address.versionSlug, address.projectRef, surface);
}

/** The id of the project `ref` (id or slug) names, if the credential may `access` it; unknown is Forbidden too. Projects are not cached. */
export async function reachProject(ref: string, { credential, access, versions, deadline }: Reach): Promise<string> {
  const projectId = await deadline.bound(() => versions.project(ref));
  if (!projectId) throw new Forbidden();
  authorize(credential, projectId, access);
  return projectId;
}

/**
 * The service `ref` names in a version already reached: by `svc_` id or by slug, the one reading
 * of a service name for every caller (search, changes, insights, exports, MCP); undefined when the
 * version has none. A name of neither form is 400, naming `argument` as the caller did.
 */
export async function findService(schemas: SchemaRegistry, services: RecordStore, versionId: string, ref: string, argument: string): Promise<CatalogRecord | undefined> {
  if (schemas.checkServiceRef(ref).length > 0) throw InvalidRequest.field(argument, SERVICE_REF_INVALID);
  return serviceByRef(services, versionId, ref);
}

/** As findService, and a service the version does not have is 404. */
export async function serviceNamed(schemas: SchemaRegistry, services: RecordStore, versionId: string, ref: string, argument: string): Promise<CatalogRecord> {
  const service = await findService(schemas, services, versionId, ref, argument);
  if (!service) throw new RecordNotFound(services.collection.notFound);
  return service;
}
