// The stages every caller takes to what it acts on, whatever brought it (an HTTP route through
// server/pipeline/handler.ts, an MCP tool through server/mcp/calls.ts): the address checked by the
// schemas, then the version or project resolved and authorized within the caller's database
// budget. Each stage passes its result on or throws the ApiError the caller reports.
import { authorize, type Access, type Credential } from '../auth/credential.ts';
import type { Deadline } from '../deadline.ts';
import { Forbidden, InvalidRequest } from '../errors.ts';
import type { SchemaRegistry, Check } from '../schemas/registry.ts';
import type { VersionType } from '../tenancy/versions.ts';
import type { ResolvedVersion, VersionAddress, VersionResolver } from '../versions/resolve.ts';

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

/** A version address written as one string (a tool argument): `ver_...` or `project/type/slug`. */
export function versionAddressIn(schemas: SchemaRegistry, ref: string, argument: string): VersionAddress {
  const parts = ref.split('/');
  if (parts.length !== 1 && parts.length !== 3) throw InvalidRequest.field(argument, 'must be a version id or project/type/slug');
  const [projectRef, versionType, versionSlug] = parts as [string, string, string];
  const given: Record<AddressPart, string> = { versionId: ref, projectRef, versionType, versionSlug };
  return versionAddress(schemas, parts.length === 1 ? 'V' : 'P', (part) => given[part], () => argument);
}

/** Who reaches for what, and the budget its lookups are bounded by (DB_TIMEOUT_MS). */
export interface Reach {
  credential: Credential;
  access: Access;
  versions: VersionResolver;
  deadline: Deadline;
}

/**
 * The version at `address`, if the credential may `access` it. Unknown gets the answer out of
 * reach gets, Forbidden, so nothing leaks; nor does the time: a version refused from the
 * resolver's cache costs the lookups of an unknown one.
 */
export async function reachVersion(address: VersionAddress, { credential, access, versions, deadline }: Reach): Promise<ResolvedVersion> {
  const cached = versions.isCached(address);
  const version = await deadline.bound(() => versions.resolve(address));
  if (!version) throw new Forbidden();
  try {
    authorize(credential, version.projectId, access);
  } catch (refusal) {
    if (cached) await deadline.bound(() => versions.lookUpAsIfUncached(address));
    throw refusal;
  }
  return version;
}

/** The id of the project `ref` (id or slug) names, if the credential may `access` it; unknown is Forbidden too. Projects are not cached. */
export async function reachProject(ref: string, { credential, access, versions, deadline }: Reach): Promise<string> {
  const projectId = await deadline.bound(() => versions.project(ref));
  if (!projectId) throw new Forbidden();
  authorize(credential, projectId, access);
  return projectId;
}
