// Projects, their catalog versions and their API keys: the tenancy records, stored in the
// `projects`, `versions` and `apiKeys` collections (documented in docs/storage.md).
import { createHash, randomBytes } from 'node:crypto';
import type { Collection, Db } from 'mongodb';
import { newId } from '../ids.ts';
import type { VersionType } from '../schemas/generated/types.ts';

// defs/ids.json#/$defs/versionType
export type { VersionType };

export interface Project {
  id: string;
  slug: string;
  name: string;
  createdAt: Date;
}

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

/**
 * How a version is stored beside its fields. `copying`: its records are being copied in; it is
 * invisible (never resolved nor listed) until marked `ready`, and `heartbeatAt` says the copier
 * is alive. Documents written before states existed have none and count as ready.
 */
type StoredVersion = Version & { state?: 'copying' | 'ready'; heartbeatAt?: Date };

/**
 * A deleted version (`deletedVersions`): its records are purged now and again until
 * `deletedAt` + the version cache's lifetime has passed, catching writes that raced the delete.
 */
export interface Tombstone {
  id: string;
  projectId: string;
  deletedAt: Date;
}

export interface VersionPageQuery {
  projectId: string;
  type: VersionType | undefined;
  /** Id of the first version of the page. */
  cursor: string | undefined;
  limit: number;
}

export interface ApiKey {
  id: string;
  projectId: string;
  /** The first characters of the secret, so people can tell their keys apart. */
  prefix: string;
  readOnly: boolean;
  createdAt: Date;
  revokedAt: Date | null;
}

/** Id prefixes, and the project id check, taken from the identifier schemas. */
export interface TenancyIds {
  project: string;
  version: string;
  apiKey: string;
  isProjectId: (ref: string) => boolean;
}

/** A slug already in use (project slug, or version slug within a project and type). */
export class DuplicateSlug extends Error {}

// Keys are recognisable in logs and secret scanners by this prefix.
export const API_KEY_PREFIX = 'catk_';
const DISPLAY_PREFIX_LENGTH = API_KEY_PREFIX.length + 6;
const DUPLICATE_KEY = 11000;

type Stored<T> = T & { _id: string };

export class Tenancy {
  readonly #projects: Collection<Stored<Project>>;
  readonly #versions: Collection<Stored<StoredVersion>>;
  readonly #tombstones: Collection<Stored<Tombstone>>;
  // Keyed by the secret's hash, so authenticating a key is one exact `_id` lookup.
  readonly #apiKeys: Collection<Stored<ApiKey>>;
  readonly #ids: TenancyIds;

  constructor(db: Db, ids: TenancyIds) {
    this.#projects = db.collection('projects');
    this.#versions = db.collection('versions');
    this.#tombstones = db.collection('deletedVersions');
    this.#apiKeys = db.collection('apiKeys');
    this.#ids = ids;
  }

  async createIndexes(): Promise<void> {
    await this.#projects.createIndex({ slug: 1 }, { unique: true, name: 'slug' });
    await this.#versions.createIndex({ projectId: 1, type: 1, slug: 1 }, { unique: true, name: 'projectId_type_slug' });
    await this.#versions.createIndex({ projectId: 1, id: 1 }, { name: 'projectId_id' });
    await this.#apiKeys.createIndex({ id: 1 }, { unique: true, name: 'id' });
    await this.#apiKeys.createIndex({ projectId: 1, createdAt: 1 }, { name: 'projectId_createdAt' });
  }

  async createProject(slug: string, name: string): Promise<Project> {
    const project: Project = { id: newId(this.#ids.project), slug, name, createdAt: new Date() };
    await insertUnique(this.#projects, { _id: project.id, ...project }, `project slug "${slug}" is taken`);
    return project;
  }

  /** By id (`proj_…`) or by slug. */
  async findProject(ref: string): Promise<Project | null> {
    return withoutId(await this.#projects.findOne(this.#ids.isProjectId(ref) ? { _id: ref } : { slug: ref }));
  }

  async listProjects(): Promise<Project[]> {
    return (await this.#projects.find().sort({ slug: 1 }).toArray()).map((document) => withoutId(document));
  }

  async countProjects(): Promise<number> {
    return this.#projects.countDocuments({}, { limit: 1 });
  }

  /**
   * A new version. With `copyingFrom` it is made in the `copying` state: invisible until
   * `finishCopy`, and its type and slug taken meanwhile (a second create answers 409).
   */
  async createVersion(projectId: string, type: VersionType, slug: string, copyingFrom: string | null = null): Promise<Version> {
    const now = new Date();
    const version: Version = { id: newId(this.#ids.version), projectId, type, slug, createdAt: now, updatedAt: now, copiedFrom: copyingFrom };
    const state = copyingFrom === null ? { state: 'ready' as const } : { state: 'copying' as const, heartbeatAt: now };
    await insertUnique(this.#versions, { _id: version.id, ...version, ...state }, `${type} "${slug}" already exists in this project`);
    return version;
  }

  /** The copier is alive: keeps a copying version from being taken for a crashed copy. */
  async heartbeat(id: string): Promise<void> {
    await this.#versions.updateOne({ _id: id, state: 'copying' }, { $set: { heartbeatAt: new Date() } });
  }

  /** Makes a copied version visible; false when it is gone (swept as a stale copy). */
  async finishCopy(id: string): Promise<Version | null> {
    const updatedAt = new Date();
    const result = await this.#versions.updateOne({ _id: id, state: 'copying' }, { $set: { state: 'ready', updatedAt } });
    return result.matchedCount === 0 ? null : this.findVersion(id);
  }

  /** A visible version by id; null when unknown, deleted or still being copied. */
  async findVersion(id: string): Promise<Version | null> {
    return visible(await this.#versions.findOne({ _id: id }));
  }

  async findVersionByAddress(projectId: string, type: VersionType, slug: string): Promise<Version | null> {
    return visible(await this.#versions.findOne({ projectId, type, slug }));
  }

  /** Every visible version of the project, by type and slug (the admin CLI's list). */
  async listVersions(projectId: string): Promise<Version[]> {
    return (await this.#versions.find({ projectId, state: { $ne: 'copying' } }).sort({ type: 1, slug: 1 }).toArray()).map(toVersion);
  }

  /** One keyset page of visible versions in id (= creation) order, plus the id the next page starts at. */
  async listVersionPage(query: VersionPageQuery): Promise<{ items: Version[]; nextCursor: string | null }> {
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

  /**
   * Deletes a version (visible or being copied), leaving a tombstone so its records can be
   * purged now and again later. The tombstone is written first: a crash in between leaves a
   * tombstone that the sweeper completes. False when the version was already gone.
   */
  async deleteVersion(version: Pick<Version, 'id' | 'projectId'>): Promise<boolean> {
    try {
      await this.#tombstones.insertOne({ _id: version.id, id: version.id, projectId: version.projectId, deletedAt: new Date() });
    } catch (error) {
      if ((error as { code?: unknown }).code !== DUPLICATE_KEY) throw error;
    }
    const result = await this.#versions.deleteOne({ _id: version.id });
    return result.deletedCount > 0;
  }

  async listTombstones(): Promise<Tombstone[]> {
    return (await this.#tombstones.find().toArray()).map((document) => withoutId(document));
  }

  /** Finishes a tombstone: the version document is gone (again, after a crash) and so is the tombstone. */
  async dropTombstone(id: string): Promise<void> {
    await this.#versions.deleteOne({ _id: id });
    await this.#tombstones.deleteOne({ _id: id });
  }

  /** A new key; the secret is returned here once and stored only as a hash. */
  async createApiKey(projectId: string, readOnly: boolean): Promise<{ apiKey: ApiKey; secret: string }> {
    const secret = API_KEY_PREFIX + randomBytes(32).toString('base64url');
    const apiKey: ApiKey = {
      id: newId(this.#ids.apiKey), projectId, prefix: secret.slice(0, DISPLAY_PREFIX_LENGTH),
      readOnly, createdAt: new Date(), revokedAt: null,
    };
    await this.#apiKeys.insertOne({ _id: hashSecret(secret), ...apiKey });
    return { apiKey, secret };
  }

  /** The key a secret belongs to, revoked or not; null when unknown. */
  async findApiKey(secret: string): Promise<ApiKey | null> {
    return withoutId(await this.#apiKeys.findOne({ _id: hashSecret(secret) }));
  }

  async listApiKeys(projectId: string): Promise<ApiKey[]> {
    return (await this.#apiKeys.find({ projectId }).sort({ createdAt: 1 }).toArray()).map((document) => withoutId(document));
  }

  /** Revokes by key id; null when no such key. Revoking twice keeps the first time. */
  async revokeApiKey(id: string): Promise<ApiKey | null> {
    await this.#apiKeys.updateOne({ id, revokedAt: null }, { $set: { revokedAt: new Date() } });
    return withoutId(await this.#apiKeys.findOne({ id }));
  }
}

/**
 * SHA-256 is enough here: the secret is 256 random bits, so there is nothing to brute-force,
 * and a slow password hash would put a deliberate delay on every request.
 */
function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

async function insertUnique<T extends { _id: string }>(collection: Collection<T>, document: T, message: string): Promise<void> {
  try {
    await collection.insertOne(document as never);
  } catch (error) {
    if ((error as { code?: unknown }).code === DUPLICATE_KEY) throw new DuplicateSlug(message);
    throw error;
  }
}

/** The interface's Version: no state; documents older than these fields get their defaults. */
function toVersion(document: Stored<StoredVersion>): Version {
  const { _id, state: _state, heartbeatAt: _heartbeat, ...version } = document;
  return { ...version, updatedAt: version.updatedAt ?? version.createdAt, copiedFrom: version.copiedFrom ?? null };
}

function visible(document: Stored<StoredVersion> | null): Version | null {
  return document && document.state !== 'copying' ? toVersion(document) : null;
}

function withoutId<T>(document: Stored<T>): T;
function withoutId<T>(document: Stored<T> | null): T | null;
function withoutId<T>(document: Stored<T> | null): T | null {
  if (!document) return null;
  const { _id, ...rest } = document;
  return rest as T;
}
