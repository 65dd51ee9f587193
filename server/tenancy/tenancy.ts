// The tenancy records together: projects, their catalog versions (and the tombstones of deleted
// ones) and their API keys, one module each (documented in docs/storage.md). The runtime passes
// this one object around; callers reach the part they need (`tenancy.versions.find(id)`).
import type { Db } from 'mongodb';
import { ApiKeys, type ApiKey } from './keys.ts';
import { Projects, type Project } from './projects.ts';
import { Tombstones } from './tombstones.ts';
import { Versions, type Version, type VersionType } from './versions.ts';

// Kept for the modules that still import these from here (auth/api-keys.ts, pipeline.ts,
// mcp/tools.ts, versions/resolve.ts: being changed in parallel under issue 18).
export type { ApiKey, VersionType };

/** Id prefixes, and the project id check, taken from the identifier schemas. */
export interface TenancyIds {
  project: string;
  version: string;
  apiKey: string;
  isProjectId: (ref: string) => boolean;
}

export class Tenancy {
  readonly projects: Projects;
  readonly versions: Versions;
  readonly tombstones: Tombstones;
  readonly apiKeys: ApiKeys;

  constructor(db: Db, ids: TenancyIds) {
    this.projects = new Projects(db, ids.project, ids.isProjectId);
    this.versions = new Versions(db, ids.version);
    this.tombstones = new Tombstones(db);
    this.apiKeys = new ApiKeys(db, ids.apiKey);
  }

  async createIndexes(): Promise<void> {
    await this.projects.createIndexes();
    await this.versions.createIndexes();
    await this.apiKeys.createIndexes();
  }

  // The old flat names, still called by the modules named above and by
  // scripts/bench/search/main.ts; fold them into `projects`/`versions`/`apiKeys` calls once
  // those are merged, then delete these.
  createProject(slug: string, name: string): Promise<Project> { return this.projects.create(slug, name); }
  createVersion(projectId: string, type: VersionType, slug: string): Promise<Version> { return this.versions.create(projectId, type, slug); }
  createApiKey(projectId: string, readOnly: boolean): Promise<{ apiKey: ApiKey; secret: string }> { return this.apiKeys.create(projectId, readOnly); }
  findApiKey(secret: string): Promise<ApiKey | null> { return this.apiKeys.find(secret); }
  findProject(ref: string): Promise<Project | null> { return this.projects.find(ref); }
  findVersion(id: string): Promise<Version | null> { return this.versions.find(id); }
  findVersionByAddress(projectId: string, type: VersionType, slug: string): Promise<Version | null> {
    return this.versions.findByAddress(projectId, type, slug);
  }
  listVersions(projectId: string): Promise<Version[]> { return this.versions.list(projectId); }
}
