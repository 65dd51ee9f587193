// Catalog versions (the `versions` collection): made empty or, while their records are copied
// in, invisible; found by id or by project, type and slug; listed. Deleting one is tombstones.ts.
import type { Collection, Db } from 'mongodb';
import { newId } from '../ids.ts';
import { createdEmpty } from './revisions.ts';
import type { VersionType } from '../schemas/generated/types.ts';
import { insertUnique, type Stored } from './stored.ts';

// defs/ids.json#/$defs/versionType
export type { VersionType };

export interface Version {
  id: string;
  projectId: string;
  type: VersionType;
  slug: string;
  createdAt: Date;
  /** When the version itself last changed (made, or its copy finished). */
  updatedAt: Date;
  /** The version whose records it started with, or null. */
  copiedFrom: string | null;
}

export interface VersionPageQuery {
  projectId: string;
  type: VersionType | undefined;
  /** Id of the first version of the page. */
  cursor: string | undefined;
  limit: number;
}

/**
 * How a version is stored beside its fields. `copying`: its records are being copied in; it is
 * invisible (never resolved nor listed) until marked `ready`, and `heartbeatAt` says the copier
 * is alive. Documents written before states existed have none and count as ready.
 */
type StoredVersion = Stored<Version & { state?: 'copying' | 'ready'; heartbeatAt?: Date }>;

export const VERSIONS_COLLECTION = 'versions';

export class Versions {
  readonly #versions: Collection<StoredVersion>;
  readonly #idPrefix: string;

  constructor(db: Db, idPrefix: string) {
    this.#versions = db.collection(VERSIONS_COLLECTION);
    this.#idPrefix = idPrefix;
  }

  async createIndexes(): Promise<void> {
    await this.#versions.createIndex({ projectId: 1, type: 1, slug: 1 }, { unique: true, name: 'projectId_type_slug' });
    await this.#versions.createIndex({ projectId: 1, id: 1 }, { name: 'projectId_id' });
  }

  /**
   * A new version. With `copyingFrom` it is made in the `copying` state: invisible until
   * `finishCopy`, and its type and slug taken meanwhile (a second create answers 409).
   * Throws DuplicateSlug when type and slug are taken in the project.
   */
  async create(projectId: string, type: VersionType, slug: string, copyingFrom: string | null = null): Promise<Version> {
    const now = new Date();
    const version: Version = { id: newId(this.#idPrefix), projectId, type, slug, createdAt: now, updatedAt: now, copiedFrom: copyingFrom };
    const state = copyingFrom === null ? { state: 'ready' as const } : { state: 'copying' as const, heartbeatAt: now };
    // A version made empty says so in its revision (revisions.ts), so that what keeps it in
    // memory (the search index) can apply its first import to nothing instead of reading it all.
    const revision = copyingFrom === null ? createdEmpty() : {};
    await insertUnique(this.#versions, { _id: version.id, ...version, ...state, ...revision }, `${type} "${slug}" already exists in this project`);
    return version;
  }

  /** The copier is alive: keeps a copying version from being taken for a crashed copy. */
  async heartbeat(id: string): Promise<void> {
    await this.#versions.updateOne({ _id: id, state: 'copying' }, { $set: { heartbeatAt: new Date() } });
  }

  /** Makes a copied version visible; null when it is gone (swept as a stale copy). */
  async finishCopy(id: string): Promise<Version | null> {
    const updatedAt = new Date();
    const result = await this.#versions.updateOne({ _id: id, state: 'copying' }, { $set: { state: 'ready', updatedAt } });
    return result.matchedCount === 0 ? null : this.find(id);
  }

  /** A visible version by id; null when unknown, deleted or still being copied. */
  async find(id: string): Promise<Version | null> {
    return visible(await this.#versions.findOne({ _id: id }));
  }

  async findByAddress(projectId: string, type: VersionType, slug: string): Promise<Version | null> {
    return visible(await this.#versions.findOne({ projectId, type, slug }));
  }

  /** Every visible version of the project, by type and slug (the admin CLI's list). */
  async list(projectId: string): Promise<Version[]> {
    return (await this.#versions.find({ projectId, state: { $ne: 'copying' } }).sort({ type: 1, slug: 1 }).toArray()).map(toVersion);
  }

  /** One keyset page of visible versions in id (= creation) order, plus the id the next page starts at. */
  async listPage(query: VersionPageQuery): Promise<{ items: Version[]; nextCursor: string | null }> {
    const filter = {
      projectId: query.projectId, state: { $ne: 'copying' as const },
      ...(query.type && { type: query.type }),
      ...(query.cursor !== undefined && { id: { $gte: query.cursor } }),
    };
    const documents = await this.#versions.find(filter).sort({ id: 1 }).limit(query.limit + 1).toArray();
    const next = documents.length > query.limit ? documents.pop() : undefined;
    return { items: documents.map(toVersion), nextCursor: next ? next.id : null };
  }

  /** Copies that stopped beating before `before`: the copier crashed or gave up. */
  async staleCopies(before: Date): Promise<Version[]> {
    return (await this.#versions.find({ state: 'copying', heartbeatAt: { $lt: before } }).toArray()).map(toVersion);
  }
}

/** The interface's Version: no state; documents older than these fields get their defaults. */
function toVersion(document: StoredVersion): Version {
  // `changes` and the revision tokens: for caches of the version (revisions.ts), up to thousands of ids.
  // `copyOf`: the revisions a copy was made at (revisions.ts markCopy).
  const { _id, state: _state, heartbeatAt: _heartbeat, changes: _changes, revision: _revision, revisions: _revisions, copyOf: _copyOf, ...version } = document as StoredVersion & { changes?: unknown; revision?: unknown; revisions?: unknown; copyOf?: unknown };
  return { ...version, updatedAt: version.updatedAt ?? version.createdAt, copiedFrom: version.copiedFrom ?? null };
}

function visible(document: StoredVersion | null): Version | null {
  return document && document.state !== 'copying' ? toVersion(document) : null;
}
