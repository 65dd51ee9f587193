// Where the cursors handed out pointed, kept in the database (`cursorPositions`, expired by a
// TTL index) so that a cursor issued by one instance resumes exactly on any other.
import type { Collection, Db, Document } from 'mongodb';
import type { SortKey } from './cursor.ts';

/** How long a cursor resumes from where it was issued; older ones resume from the item's current values. */
export const CURSOR_POSITION_TTL_MS = 15 * 60_000;

interface StoredPosition {
  _id: string;
  /** The sort values of the cursor's item when its page was served. */
  values: Document;
  expiresAt: Date;
}

/**
 * The interface's cursor is a bare item id, so resuming from the item's *current* values would
 * skip the records it jumps over if the item changed its sort value between pages, and could
 * not resume at all had it been deleted. So each `nextCursor` of a page sorted by anything
 * but `id` alone is written down with its item's sort values. Expiry is checked on read too:
 * the TTL monitor (MongoDB) deletes only about once a minute, and FerretDB 1.24 not at all.
 */
export class CursorPositions {
  readonly #positions: Collection<StoredPosition>;
  readonly #collectionName: string;
  readonly #ttlMs: number;
  /** Set where the database has no TTL indexes (FerretDB 1.24): expired positions are then deleted here, at most once a minute. */
  #nextSweep: number | undefined;

  constructor(db: Db, collectionName: string, ttlMs = CURSOR_POSITION_TTL_MS) {
    this.#positions = db.collection('cursorPositions');
    this.#collectionName = collectionName;
    this.#ttlMs = ttlMs;
  }

  async createIndexes(): Promise<void> {
    try {
      await this.#positions.createIndex({ expiresAt: 1 }, { name: 'expiresAt_ttl', expireAfterSeconds: 0 });
    } catch (error) {
      // FerretDB 1.24: 'Index option "expireAfterSeconds" is not implemented yet'.
      if (!/expireAfterSeconds/.test(String((error as Error).message))) throw error;
      await this.#positions.createIndex({ expiresAt: 1 }, { name: 'expiresAt' });
      this.#nextSweep = 0;
    }
  }

  async remember(versionId: string, keys: readonly SortKey[], item: Document): Promise<void> {
    const values = Object.fromEntries(keys.map((key) => [key.field, item[key.field] ?? null]));
    const _id = this.#key(versionId, keys, String(item['id']));
    // Upsert: the same page served twice names the same item; the later values win.
    await this.#positions.replaceOne({ _id }, { values, expiresAt: new Date(Date.now() + this.#ttlMs) }, { upsert: true });
    if (this.#nextSweep !== undefined && this.#nextSweep <= Date.now()) {
      this.#nextSweep = Date.now() + 60_000;
      await this.#positions.deleteMany({ expiresAt: { $lte: new Date() } });
    }
  }

  /** The remembered sort values of the item `id` under this sort, if some instance issued it and it has not expired. */
  async recall(versionId: string, keys: readonly SortKey[], id: string): Promise<Document | undefined> {
    const found = await this.#positions.findOne({ _id: this.#key(versionId, keys, id) });
    return found && found.expiresAt.getTime() > Date.now() ? found.values : undefined;
  }

  #key(versionId: string, keys: readonly SortKey[], id: string): string {
    const sort = keys.map((key) => (key.direction === 1 ? key.field : `-${key.field}`)).join(',');
    // JSON: unambiguous whatever the ids hold, and no NUL characters in `_id`.
    return JSON.stringify([this.#collectionName, versionId, sort, id]);
  }
}
