// The revision of each catalog version: tokens on its document in `versions`, replaced after
// every write to its records (one for the version, one per collection written), so that
// anything kept in memory about a version (the search index) is known fresh by one read by
// `_id` on any instance, and knows which collections to read again (docs/storage.md).
import type { Collection, Db } from 'mongodb';
import { ulid } from 'ulid';

/** The version's tokens: `version` changes with every write, `collections[name]` with each write to that collection. */
export interface Revision { version: string; collections: Readonly<Record<string, string>> }

interface VersionDocument { _id: string; revision?: string; revisions?: Record<string, string> }

/**
 * Bumps of one version queued in this process, where the database needs it. On MongoDB one
 * `$set` of several fields is atomic; FerretDB applies it as a read and a write of the whole
 * document, so two concurrent bumps could lose one's collection token. The embedded FerretDB
 * serves one instance, so a process-wide queue is enough there.
 */
const queues = new Map<string, Promise<void>>();

export class Revisions {
  readonly #versions: Collection<VersionDocument>;
  readonly #queued: boolean;

  /** `queued`: one bump of a version at a time in this process (FerretDB needs it; see above). */
  constructor(db: Db, options: { queued?: boolean } = {}) {
    this.#versions = db.collection('versions');
    this.#queued = options.queued ?? true;
  }

  /**
   * Marks the version's records as changed in these collections. Called AFTER the write, so a
   * reader that sees the new tokens reads the new records. Fresh unique tokens rather than
   * counters: a `$inc` that FerretDB applies as a read and a write could store one count for
   * two writers, and an index built between the two would never see the second.
   */
  bump(versionId: string, collections: readonly string[]): Promise<void> {
    const token = ulid();
    const set = { revision: token, ...Object.fromEntries(collections.map((name) => [`revisions.${name}`, token])) };
    const write = async () => {
      await this.#versions.updateOne({ _id: versionId }, { $set: set });
    };
    if (!this.#queued) return write();
    const previous = queues.get(versionId) ?? Promise.resolve();
    const bumped = previous.catch(() => {}).then(write);
    queues.set(versionId, bumped);
    void bumped.catch(() => {}).finally(() => {
      if (queues.get(versionId) === bumped) queues.delete(versionId);
    });
    return bumped;
  }

  /**
   * The version's tokens ('' where never written since revisions exist), or null when the
   * version document is gone (deleted). Read BEFORE the records they stand for: a write landing
   * in between then leaves newer tokens than the ones kept.
   */
  async of(versionId: string): Promise<Revision | null> {
    const document = await this.#versions.findOne({ _id: versionId }, { projection: { revision: 1, revisions: 1 } });
    return document ? { version: document.revision ?? '', collections: document.revisions ?? {} } : null;
  }
}
