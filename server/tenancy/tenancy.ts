// The tenancy records together: projects, their catalog versions (and the tombstones of deleted
// ones) and their API keys, one module each (documented in docs/storage.md). The runtime passes
// this one object around; callers reach the part they need (`tenancy.versions.find(id)`).
// It is the one writer of `versions`: the revision tokens the record stores bump after their
// writes are written here too (revisions.ts), through the one `Revisions` it makes.
import type { Db } from 'mongodb';
import { ApiKeys } from './keys.ts';
import { Projects } from './projects.ts';
import { Revisions } from './revisions.ts';
import { Tombstones } from './tombstones.ts';
import { Versions } from './versions.ts';

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
  /** Each version's revision tokens and last writes, bumped by the record stores after theirs. */
  readonly revisions: Revisions;

  /** `serialiseWrites`: one revision bump of a version at a time in this process (FerretDB needs it: revisions.ts). */
  constructor(db: Db, ids: TenancyIds, { serialiseWrites = true }: { serialiseWrites?: boolean } = {}) {
    this.projects = new Projects(db, ids.project, ids.isProjectId);
    this.versions = new Versions(db, ids.version);
    this.revisions = new Revisions(db, { queued: serialiseWrites });
    this.tombstones = new Tombstones(db);
    this.apiKeys = new ApiKeys(db, ids.apiKey);
  }

  async createIndexes(): Promise<void> {
    await this.projects.createIndexes();
    await this.versions.createIndexes();
    await this.apiKeys.createIndexes();
  }
}
