// Project API keys (the `apiKeys` collection): the secret is shown once and stored as a hash.
import { createHash, randomBytes } from 'node:crypto';
import type { Collection, Db } from 'mongodb';
import { newId } from '../ids.ts';
import { withoutId, type Stored } from './stored.ts';

export interface ApiKey {
  id: string;
  projectId: string;
  /** The first characters of the secret, so people can tell their keys apart. */
  prefix: string;
  readOnly: boolean;
  createdAt: Date;
  revokedAt: Date | null;
}

// Keys are recognisable in logs and secret scanners by this prefix.
export const API_KEY_PREFIX = 'catk_';
const DISPLAY_PREFIX_LENGTH = API_KEY_PREFIX.length + 6;

export class ApiKeys {
  // Keyed by the secret's hash, so authenticating a key is one exact `_id` lookup.
  readonly #apiKeys: Collection<Stored<ApiKey>>;
  readonly #idPrefix: string;

  constructor(db: Db, idPrefix: string) {
    this.#apiKeys = db.collection('apiKeys');
    this.#idPrefix = idPrefix;
  }

  async createIndexes(): Promise<void> {
    await this.#apiKeys.createIndex({ id: 1 }, { unique: true, name: 'id' });
    await this.#apiKeys.createIndex({ projectId: 1, createdAt: 1 }, { name: 'projectId_createdAt' });
  }

  /** A new key; the secret is returned here once and stored only as a hash. */
  async create(projectId: string, readOnly: boolean): Promise<{ apiKey: ApiKey; secret: string }> {
    const secret = API_KEY_PREFIX + randomBytes(32).toString('base64url');
    const apiKey: ApiKey = {
      id: newId(this.#idPrefix), projectId, prefix: secret.slice(0, DISPLAY_PREFIX_LENGTH),
      readOnly, createdAt: new Date(), revokedAt: null,
    };
    await this.#apiKeys.insertOne({ _id: hashSecret(secret), ...apiKey });
    return { apiKey, secret };
  }

  /** The key a secret belongs to, revoked or not; null when unknown. */
  async find(secret: string): Promise<ApiKey | null> {
    return withoutId(await this.#apiKeys.findOne({ _id: hashSecret(secret) }));
  }

  async list(projectId: string): Promise<ApiKey[]> {
    return (await this.#apiKeys.find({ projectId }).sort({ createdAt: 1 }).toArray()).map((document) => withoutId(document));
  }

  /** Revokes by key id; null when no such key. Revoking twice keeps the first time. */
  async revoke(id: string): Promise<ApiKey | null> {
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
