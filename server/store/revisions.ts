// The revision of each catalog version: a token on its document in `versions`, replaced after
// every write to its records, so that anything kept in memory about a version (the search index)
// is known fresh by one read by `_id` on any instance (docs/storage.md).
import type { Collection, Db } from 'mongodb';
import { ulid } from 'ulid';

export class Revisions {
  readonly #versions: Collection<{ _id: string; revision?: string }>;

  constructor(db: Db) {
    this.#versions = db.collection('versions');
  }

  /**
   * Marks the version's records as changed. Called AFTER the write, so a reader that sees the
   * new token reads the new records. A fresh unique token rather than a counter: FerretDB applies
   * `$inc` as a read and a write, so two concurrent writers could both store the same count and
   * a reader that built between them would never see a change again; two tokens never collide.
   */
  async bump(versionId: string): Promise<void> {
    await this.#versions.updateOne({ _id: versionId }, { $set: { revision: ulid() } });
  }

  /**
   * The version's current token: '' when it was never written since the change that added
   * revisions, null when the version document is gone (deleted). Read BEFORE the records it
   * stands for: a write landing in between then leaves a newer token than the one kept.
   */
  async of(versionId: string): Promise<string | null> {
    const document = await this.#versions.findOne({ _id: versionId }, { projection: { revision: 1 } });
    return document ? document.revision ?? '' : null;
  }
}
