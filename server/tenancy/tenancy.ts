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
  readonly #versions: Collection<Stored<Version>>;
  // Keyed by the secret's hash, so authenticating a key is one exact `_id` lookup.
  readonly #apiKeys: Collection<Stored<ApiKey>>;
  readonly #ids: TenancyIds;

  constructor(db: Db, ids: TenancyIds) {
    this.#projects = db.collection('projects');
    this.#versions = db.collection('versions');
    this.#apiKeys = db.collection('apiKeys');
    this.#ids = ids;
  }

  async createIndexes(): Promise<void> {
    await this.#projects.createIndex({ slug: 1 }, { unique: true, name: 'slug' });
    await this.#versions.createIndex({ projectId: 1, type: 1, slug: 1 }, { unique: true, name: 'projectId_type_slug' });
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

  async createVersion(projectId: string, type: VersionType, slug: string): Promise<Version> {
    const version: Version = { id: newId(this.#ids.version), projectId, type, slug, createdAt: new Date() };
    await insertUnique(this.#versions, { _id: version.id, ...version }, `${type} "${slug}" already exists in this project`);
    return version;
  }

  async findVersion(id: string): Promise<Version | null> {
    return withoutId(await this.#versions.findOne({ _id: id }));
  }

  async findVersionByAddress(projectId: string, type: VersionType, slug: string): Promise<Version | null> {
    return withoutId(await this.#versions.findOne({ projectId, type, slug }));
  }

  async listVersions(projectId: string): Promise<Version[]> {
    return (await this.#versions.find({ projectId }).sort({ type: 1, slug: 1 }).toArray()).map((document) => withoutId(document));
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

function withoutId<T>(document: Stored<T>): T;
function withoutId<T>(document: Stored<T> | null): T | null;
function withoutId<T>(document: Stored<T> | null): T | null {
  if (!document) return null;
  const { _id, ...rest } = document;
  return rest as T;
}
