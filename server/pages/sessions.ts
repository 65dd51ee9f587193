// Browser sessions of the pages (the `pageSessions` collection, docs/storage.md): the browser holds
// only a random session id; the database holds its hash and the credential sealed with a key
// derived from that id, so neither side alone opens anything, and every request re-checks the
// credential itself through the same authentication as the interface (rights are never copied).
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import type { Collection, Db } from 'mongodb';

export const PAGE_SESSIONS_COLLECTION = 'pageSessions';

interface StoredSession {
  _id: string;
  sealed: string;
  formToken: string;
  createdAt: Date;
  expiresAt: Date;
}

/** An open session: the credential it was signed in with, the token its forms carry, its end. */
export interface OpenSession {
  bearer: string;
  formToken: string;
  expiresAt: Date;
}

const CIPHER = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class PageSessions {
  readonly #sessions: Collection<StoredSession>;
  readonly #lifetimeMs: number;
  #indexed: Promise<unknown> | undefined;

  constructor(db: Db, lifetimeMs: number) {
    this.#sessions = db.collection(PAGE_SESSIONS_COLLECTION);
    this.#lifetimeMs = lifetimeMs;
  }

  /** A new session for `bearer`; its id, to be given to the browser and nowhere else. */
  async start(bearer: string, now = new Date()): Promise<{ id: string; session: OpenSession }> {
    // The TTL index only tidies: expiry is decided by `open`, whatever the database's sweeper does.
    this.#indexed ??= this.#sessions.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0, name: 'expiresAt_ttl' }).catch(() => undefined);
    await this.#indexed;
    const id = randomBytes(32).toString('base64url');
    const session: OpenSession = { bearer, formToken: randomBytes(24).toString('base64url'), expiresAt: new Date(now.getTime() + this.#lifetimeMs) };
    await this.#sessions.insertOne({ _id: hashOf(id), sealed: seal(id, bearer), formToken: session.formToken, createdAt: now, expiresAt: session.expiresAt });
    return { id, session };
  }

  /** The session the id names, while it lasts; null when unknown, ended or expired. */
  async open(id: string, now = new Date()): Promise<OpenSession | null> {
    const stored = await this.#sessions.findOne({ _id: hashOf(id) });
    if (!stored || stored.expiresAt <= now) return null;
    const bearer = unseal(id, stored.sealed);
    return bearer === null ? null : { bearer, formToken: stored.formToken, expiresAt: stored.expiresAt };
  }

  /** Ends the session on the server: its cookie opens nothing afterwards. */
  async end(id: string): Promise<void> {
    await this.#sessions.deleteOne({ _id: hashOf(id) });
  }
}

function hashOf(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}

function keyOf(id: string): Buffer {
  return Buffer.from(hkdfSync('sha256', id, 'catalog-page-session', 'credential', 32));
}

function seal(id: string, bearer: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(CIPHER, keyOf(id), iv);
  const sealed = Buffer.concat([cipher.update(bearer, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

function unseal(id: string, sealed: string): string | null {
  const bytes = Buffer.from(sealed, 'base64url');
  try {
    const decipher = createDecipheriv(CIPHER, keyOf(id), bytes.subarray(0, IV_BYTES));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
