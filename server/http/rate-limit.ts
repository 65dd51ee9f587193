// Rate limiting per credential (express-rate-limit): authenticated requests count against their
// credential (API key id or token subject), failed authentications against the client address,
// so a flood of guesses is slowed too. Over the limit: 429 with Retry-After.
import type { Request } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import type { Authenticate } from '../auth/authenticate.ts';
import type { Credential } from '../auth/credential.ts';
import { TooManyRequests, Unauthorized } from '../errors.ts';

export interface RateLimit {
  max: number;
  windowMs: number;
}

/** `authenticate`, with every request counted and refused once its key is over `limit`. */
export function rateLimited(authenticate: Authenticate, limit: RateLimit): Authenticate {
  const credentials = new WeakMap<Request, Credential>();
  const limiter = rateLimit({
    windowMs: limit.windowMs,
    limit: limit.max,
    // Only Retry-After, on the 429 itself: RateLimit headers on every answer would make the
    // answers to different credentials differ (the 401/403 answers are meant to be identical).
    standardHeaders: false,
    legacyHeaders: false,
    keyGenerator(req) {
      const credential = credentials.get(req);
      return credential ? `${credential.scheme}:${credential.subject}` : `address:${ipKeyGenerator(req.ip ?? '')}`;
    },
    handler(req, _res, next) {
      const resetTime = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
      next(new TooManyRequests(resetTime ? (resetTime.getTime() - Date.now()) / 1000 : limit.windowMs / 1000));
    },
    // We run behind no proxy we know of; a client's X-Forwarded-For is its own business, not a misconfiguration.
    validate: { xForwardedForHeader: false, trustProxy: false },
  });
  const count = (req: Request, res: Parameters<Authenticate>[1]) => new Promise<void>((resolve, reject) => {
    void limiter(req, res, (error?: unknown) => (error ? reject(error) : resolve()));
  });

  return async (req, res) => {
    let credential: Credential;
    try {
      credential = await authenticate(req, res);
    } catch (error) {
      if (error instanceof Unauthorized) await count(req, res);
      throw error;
    }
    credentials.set(req, credential);
    await count(req, res);
    return credential;
  };
}
