// The versions interface's operations: list, create (empty or as a copy), get, delete and diff.
// Each runs after the pipeline has authenticated, resolved and authorized, and returns an outcome.
import { Conflict, Forbidden, InvalidRequest } from '../errors.ts';
import { SCHEMA_BASE, type SchemaRegistry } from '../schemas/registry.ts';
import type { VersionRecords } from '../store/version-records.ts';
import { DuplicateSlug } from '../tenancy/stored.ts';
import type { Tenancy } from '../tenancy/tenancy.ts';
import type { Version, VersionType } from '../tenancy/versions.ts';

import { checked, versionAddressIn } from '../pipeline/stages.ts';
import type { Outcome, ProjectContext, QueryValues, VersionAddress, VersionContext } from '../routes/route.ts';
import type { NewCatalogVersion } from '../schemas/generated/types.ts';
import type { VersionManager } from './manage.ts';

export const VERSION_SCHEMA = `${SCHEMA_BASE}api/version.json`;

export interface VersionParts {
  schemas: SchemaRegistry;
  tenancy: Tenancy;
  manager: VersionManager;
  records: VersionRecords;
  /** Wraps each create, copy and delete (change events record them with the write). */
  around?: AroundVersionWrite;
}

/** A version made, copied or deleted, as another room sees it. */
export interface VersionWrite {
  kind: 'created' | 'copied' | 'deleted';
  projectId: string;
  type: VersionType;
  slug: string;
  /** Absent for a version not made yet. */
  versionId?: string;
  copiedFrom?: string;
}
export type AroundVersionWrite = <T>(write: VersionWrite, run: () => Promise<T>) => Promise<T>;

const unwrapped: AroundVersionWrite = (_write, run) => run();

/** A version as the interface shows it (schemas/api/version.json). */
export function versionJson(version: Version): Record<string, unknown> {
  return {
    id: version.id, projectId: version.projectId, type: version.type, slug: version.slug,
    createdAt: version.createdAt.toISOString(), updatedAt: version.updatedAt.toISOString(), copiedFrom: version.copiedFrom,
  };
}

export function versionOperations({ schemas, tenancy, manager, records, around = unwrapped }: VersionParts) {
  /** The version the pipeline resolved, read whole; a version deleted meanwhile is out of reach. */
  async function current(context: VersionContext): Promise<Version> {
    const version = await tenancy.versions.find(context.version.versionId);
    if (!version) throw new Forbidden();
    return version;
  }

  return {
    async list({ projectId, query: { cursor, limit, type } }: ProjectContext<{ cursor?: string; limit: number; type?: VersionType }>): Promise<Outcome> {
      const page = await tenancy.versions.listPage({ projectId, type, cursor, limit });
      return {
        status: 200,
        body: { items: page.items.map(versionJson), pagination: { nextCursor: page.nextCursor, hasMore: page.nextCursor !== null, limit } },
      };
    },

    async create({ projectId, body: { type, slug, copyFrom }, reachForRead }: ProjectContext<QueryValues, NewCatalogVersion>): Promise<Outcome> {
      let sourceId: string | null = null;
      if (copyFrom !== undefined) {
        const address: VersionAddress = typeof copyFrom === 'string'
          ? versionAddressIn(schemas, copyFrom, '/copyFrom', projectId)
          : { family: 'P', projectRef: projectId, versionType: copyFrom.type, versionSlug: copyFrom.slug };
        // Unknown or out of reach: 403 as anywhere else; reachable but another project's: 400.
        const source = await reachForRead(address);
        if (source.projectId !== projectId) throw InvalidRequest.field('/copyFrom', 'must be a version of the same project');
        sourceId = source.versionId;
      }
      try {
        const made: VersionWrite = { kind: sourceId === null ? 'created' : 'copied', projectId, type, slug, ...(sourceId !== null && { copiedFrom: sourceId }) };
        const version = await around(made, () => manager.create(projectId, type, slug, sourceId));
        return { status: 201, body: versionJson(version), headers: { Location: `/v2/catalog/versions/${version.id}` } };
      } catch (error) {
        if (error instanceof DuplicateSlug) throw new Conflict([{ field: '/slug', message: error.message }]);
        throw error;
      }
    },

    async get(context: VersionContext): Promise<Outcome> {
      return { status: 200, body: versionJson(await current(context)) };
    },

    async delete(context: VersionContext): Promise<Outcome> {
      const version = await current(context);
      const deleted = await around({ kind: 'deleted', projectId: version.projectId, type: version.type, slug: version.slug, versionId: version.id }, () => manager.delete(version));
      context.forgetVersion(version.id);
      if (!deleted) throw new Forbidden();
      return { status: 204 };
    },

    async diff({ version, query: { against }, reachForRead }: VersionContext<{ against: string }>): Promise<Outcome> {
      const other = await reachForRead(versionAddressIn(schemas, against, 'against', version.projectId));
      const collections = await records.diff(version.versionId, other.versionId);
      return { status: 200, body: { versionId: version.versionId, against: other.versionId, collections } };
    },
  };
}
