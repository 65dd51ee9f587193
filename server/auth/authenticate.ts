// The bearer strategy (passport-http-bearer) that accepts both schemes: a JWT is verified as a
// personal access token, anything else is looked up as a project API key.
import type { KeyObject } from 'node:crypto';
import passport from 'passport';
import { Strategy as BearerStrategy } from 'passport-http-bearer';
import type { Request, Response } from 'express';
import { Unauthorized } from '../errors.ts';
import type { ApiKeyLookup } from './api-keys.ts';
import type { Credential } from './credential.ts';
import { looksLikeJwt, tokenKey, verifyToken } from './tokens.ts';

const STRATEGY = 'bearer';
const BEARER_HEADER = /^Bearer [^\s]+$/i;

export type Authenticate = (req: Request, res: Response) => Promise<Credential>;

/** What a bearer secret grants now, or null: the one check both the header and a page session (server/pages/) make. */
export type VerifyBearer = (bearer: string) => Promise<Credential | null>;

export function bearerVerifier(apiKeys: ApiKeyLookup, jwtSecret: string): VerifyBearer {
  const key = tokenKey(jwtSecret);
  return (bearer) => credentialFor(bearer, apiKeys, key);
}

export function bearerAuthentication(verify: VerifyBearer): Authenticate {
  // An instance of our own, not passport's global singleton: each app (and test) gets its own.
  const authenticator = new passport.Passport();
  authenticator.use(STRATEGY, new BearerStrategy((bearer, done) => {
    verify(bearer).then((credential) => done(null, credential ?? false), done);
  }));
  const middleware = (callback: (error: unknown, credential: Credential | false) => void) =>
    authenticator.authenticate(STRATEGY, { session: false }, callback);

  return (req, res) => new Promise((resolve, reject) => {
    // passport-http-bearer would also take `?access_token=` or a body field; the interface
    // defines only the header, and query strings end up in access logs.
    if (!BEARER_HEADER.test(req.headers.authorization ?? '')) return reject(new Unauthorized());
    middleware((error, credential) => {
      if (error) reject(error);
      else if (credential) resolve(credential);
      else reject(new Unauthorized());
    })(req, res, reject);
  });
}

async function credentialFor(bearer: string, apiKeys: ApiKeyLookup, key: KeyObject): Promise<Credential | null> {
  if (looksLikeJwt(bearer)) return verifyToken(bearer, key);
  const apiKey = await apiKeys.usable(bearer);
  if (!apiKey) return null;
  return {
    scheme: 'projectApiKey',
    subject: apiKey.id,
    projects: new Set([apiKey.projectId]),
    read: true,
    write: !apiKey.readOnly,
  };
}
