// The life of a catalog version: made empty or as a copy (invisible until the copy is whole),
// deleted (a tombstone, records purged at once and again after the version cache's lifetime),
// and the sweeper that finishes what crashes and races left behind. Shared by the HTTP routes
// and the admin CLI.
import type { VersionRecords } from '../store/version-records.ts';
import type { Tenancy } from '../tenancy/tenancy.ts';
import type { Version, VersionType } from '../tenancy/versions.ts';

export interface VersionManagerOptions {
  /** VERSION_CACHE_MS: how long another instance may still serve a deleted version. */
  cacheMs: number;
  log?: (message: string, fields?: object) => void;
}

/** A copy whose heartbeat is older than this is taken for crashed and swept. */
export const STALE_COPY_MS = 60_000;
/** Beats at most this often during a copy (one small update, not one per batch). */
const HEARTBEAT_EVERY_MS = 5_000;
/** Margin beyond the cache lifetime for a request that resolved just before it expired. */
export const PURGE_GRACE_MS = 10_000;

export class VersionManager {
  readonly #tenancy: Tenancy;
  readonly #records: VersionRecords;
  readonly #options: VersionManagerOptions;
  #timer: NodeJS.Timeout | undefined;
  #sweeping: Promise<void> | undefined;

  constructor(tenancy: Tenancy, records: VersionRecords, options: VersionManagerOptions) {
    this.#tenancy = tenancy;
    this.#records = records;
    this.#options = options;
  }

  /**
   * A new version, empty or with every record of `copyFrom` (already checked to be a visible
   * version of the same project). Throws DuplicateSlug when type and slug are taken. A failed
   * copy removes what it made before rethrowing: the client never sees half a version.
   */
  async create(projectId: string, type: VersionType, slug: string, copyFrom: string | null = null): Promise<Version> {
    const version = await this.#tenancy.versions.create(projectId, type, slug, copyFrom);
    if (copyFrom === null) return version;
    try {
      let lastBeat = Date.now();
      await this.#records.copy(copyFrom, version.id, async () => {
        if (Date.now() - lastBeat < HEARTBEAT_EVERY_MS) return;
        lastBeat = Date.now();
        await this.#tenancy.versions.heartbeat(version.id);
      });
      // A source deleted during the copy was being purged under the cursor: the copy may miss records.
      if (!(await this.#tenancy.versions.find(copyFrom))) throw new Error(`version ${copyFrom} was deleted while being copied`);
      const ready = await this.#tenancy.versions.finishCopy(version.id);
      if (!ready) throw new Error(`copy into ${version.id} was swept as stale before it finished`);
      return ready;
    } catch (error) {
      await this.#discard(version).catch((cleanup: unknown) => this.#options.log?.('version copy: cleanup failed; the sweeper will retry', { versionId: version.id, err: cleanup }));
      throw error;
    }
  }

  /** Deletes a version and its records; false when it was already gone. */
  async delete(version: Pick<Version, 'id' | 'projectId'>): Promise<boolean> {
    const deleted = await this.#tenancy.tombstones.deleteVersion(version);
    await this.#records.purge(version.id);
    return deleted;
  }

  async #discard(version: Version): Promise<void> {
    await this.#tenancy.tombstones.deleteVersion(version);
    await this.#records.purge(version.id);
  }

  /**
   * One pass: copies that stopped beating become deleted versions; every deleted version's
   * records are purged, and its tombstone dropped once no instance can still be serving it.
   */
  async sweep(now: Date = new Date()): Promise<void> {
    for (const stale of await this.#tenancy.versions.staleCopies(new Date(now.getTime() - STALE_COPY_MS))) {
      this.#options.log?.('version sweeper: removing a copy that stopped (crashed instance?)', { versionId: stale.id });
      await this.#tenancy.tombstones.deleteVersion(stale);
    }
    const settled = now.getTime() - this.#options.cacheMs - PURGE_GRACE_MS;
    for (const tombstone of await this.#tenancy.tombstones.list()) {
      const purged = await this.#records.purge(tombstone.id);
      if (purged > 0) this.#options.log?.('version sweeper: purged records of a deleted version', { versionId: tombstone.id, purged });
      if (tombstone.deletedAt.getTime() <= settled) await this.#tenancy.tombstones.drop(tombstone.id);
    }
  }

  /** Sweeps now and then every `everyMs`, never two passes at once; the timer keeps no process alive. */
  startSweeper(everyMs = Math.max(5_000, Math.min(this.#options.cacheMs, 60_000))): void {
    if (this.#timer) return;
    const pass = () => {
      this.#sweeping ??= this.sweep()
        .catch((error: unknown) => this.#options.log?.('version sweeper failed; next pass retries', { err: error }))
        .finally(() => { this.#sweeping = undefined; });
    };
    pass();
    this.#timer = setInterval(pass, everyMs);
    this.#timer.unref();
  }

  async stopSweeper(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#sweeping;
  }
}
