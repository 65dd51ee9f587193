// Who is asking for a page: a program with `Authorization: Bearer` (authenticated exactly as the
// interface does), or a person whose cookie names a session, whose sealed credential is checked
// again on every request through the same verification: a revoked key stops within
// API_KEY_CACHE_MS, an expired token at its `exp`, and the session ends with them.
import type { Request, Response } from 'express';
import { parse as parseCookies } from 'cookie';
import type { Authenticate, VerifyBearer } from '../auth/authenticate.ts';
import type { Credential } from '../auth/credential.ts';
import { Unauthorized } from '../errors.ts';
import type { RateLimiter } from '../http/rate-limit.ts';
import type { PageSessions } from './sessions.ts';

export const SESSION_COOKIE = 'catalog_session';

export interface Visitor {
  credential: Credential;
  /** The session's id and form token, when signed in through the browser. */
  session: { id: string; formToken: string } | undefined;
}

export interface VisitorParts {
  sessions: PageSessions;
  verify: VerifyBearer;
  /** The interface's bearer authentication (rate limited as configured). */
  authenticate: Authenticate;
  limiter: RateLimiter;
}

export class Visitors {
  readonly #parts: VisitorParts;
  readonly #bySession: Authenticate;
  readonly #sessionOf = new WeakMap<Request, { id: string; formToken: string }>();

  constructor(parts: VisitorParts) {
    this.#parts = parts;
    const bySession: Authenticate = async (req) => {
      const id = sessionIdOf(req);
      const session = id === undefined ? null : await parts.sessions.open(id);
      if (id === undefined || !session) throw new Unauthorized();
      const credential = await parts.verify(session.bearer);
      if (!credential) {
        // Revoked or expired since sign-in: the session goes with it.
        await parts.sessions.end(id);
        throw new Unauthorized();
      }
      this.#sessionOf.set(req, { id, formToken: session.formToken });
      return credential;
    };
    // A session's requests count against its credential's rate limit, as the header's would.
    this.#bySession = parts.limiter.guard(bySession);
  }

  /**
   * The visitor, or null when signed out (no session, or one that ended). A bearer header that
   * does not authenticate is the interface's 401, thrown.
   */
  async of(req: Request, res: Response): Promise<Visitor | null> {
    if (req.headers.authorization !== undefined) return { credential: await this.#parts.authenticate(req, res), session: undefined };
    try {
      const credential = await this.#bySession(req, res);
      return { credential, session: this.#sessionOf.get(req) };
    } catch (error) {
      if (error instanceof Unauthorized) return null;
      throw error;
    }
  }
}

export function sessionIdOf(req: Request): string | undefined {
  const header = req.headers.cookie;
  if (header === undefined) return undefined;
  const id = parseCookies(header)[SESSION_COOKIE];
  return id === undefined || id === '' ? undefined : id;
}

/** HTTPS reached this service, directly or through a proxy that says so: cookies are then Secure. */
export function isHttps(req: Request): boolean {
  return req.secure || req.headers['x-forwarded-proto'] === 'https';
}
