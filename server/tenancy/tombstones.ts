// Deleting a version: its document goes and a tombstone (`deletedVersions`) stays, so that its
// records are purged now and again until `deletedAt` + the version cache's lifetime has passed,
// catching writes that raced the delete.
import type { Collection, Db } from 'mongodb';
import { VERSIONS_COLLECTION, type Version } from './versions.ts';
import { isDuplicateKey, withoutId, type Stored } from './stored.ts';

export interface Tombstone {
  id: string;
  projectId: string;
  deletedAt: Date;
}

export class Tombstones {
  readonly #tombstones: Collection<Stored<Tombstone>>;
  // Only ever deleted from here: what a version is stays versions.ts's business.
  readonly #versions: Collection<{ _id: string }>;

  constructor(db: Db) {
    this.#tombstones = db.collection('deletedVersions');
    this.#versions = db.collection(VERSIONS_COLLECTION);
  }

  /**
   * Deletes a version (visible or being copied), leaving a tombstone. The tombstone is written
   * first: a crash in between leaves a tombstone that the sweeper completes. False when the
   * version was already gone.
   */
  async deleteVersion(version: Pick<Version, 'id' | 'projectId'>): Promise<boolean> {
    try {
      await this.#tombstones.insertOne({ _id: version.id, id: version.id, projectId: version.projectId, deletedAt: new Date() });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
    const result = await this.#versions.deleteOne({ _id: version.id });
    return result.deletedCount > 0;
  }

  async list(): Promise<Tombstone[]> {
    return (await this.#tombstones.find().toArray()).map((document) => withoutId(document));
  }

  /** Finishes a tombstone: the version document is gone (again, after a crash) and so is the tombstone. */
  async drop(id: string): Promise<void> {
    await this.#versions.deleteOne({ _id: id });
    await this.#tombstones.deleteOne({ _id: id });
  }
}
