// Personal access tokens: JWTs signed with HS256 and JWT_SECRET. Issued by the admin CLI,
// verified on every request. The claims are documented in the README.
import { createSecretKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { Credential } from './credential.ts';

export const TOKEN_AUDIENCE = 'catalog-api';
export const SCOPE_READ = 'catalog:read';
export const SCOPE_WRITE = 'catalog:write';
const ALGORITHM = 'HS256';
const ALL_PROJECTS = '*';

export interface TokenRequest {
  subject: string;
  /** Project ids, or 'all'. */
  projects: readonly string[] | 'all';
  readOnly: boolean;
  expiresInSeconds: number;
}

export function issueToken(request: TokenRequest, secret: string | KeyObject): { token: string; expiresAt: Date } {
  const scope = request.readOnly ? SCOPE_READ : `${SCOPE_READ} ${SCOPE_WRITE}`;
  const projects = request.projects === 'all' ? [ALL_PROJECTS] : [...request.projects];
  const token = jwt.sign({ projects, scope }, secret, {
    algorithm: ALGORITHM, audience: TOKEN_AUDIENCE, subject: request.subject, expiresIn: request.expiresInSeconds,
  });
  const { exp } = jwt.decode(token) as { exp: number };
  return { token, expiresAt: new Date(exp * 1000) };
}

/**
 * The credential a token grants, or null when it is not one we issued and still honour.
 * The algorithm is pinned (so `none` and RS/HS confusion fail); jsonwebtoken accepts a token
 * without `exp`, so its presence is checked here.
 */
export function verifyToken(token: string, secret: string | KeyObject): Credential | null {
  let claims: unknown;
  try {
    claims = jwt.verify(token, secret, { algorithms: [ALGORITHM], audience: TOKEN_AUDIENCE });
  } catch {
    return null;
  }
  if (!isTokenClaims(claims)) return null;
  const scopes = new Set(claims.scope.split(' '));
  return {
    scheme: 'personalAccessToken',
    subject: claims.sub,
    projects: claims.projects.includes(ALL_PROJECTS) ? 'all' : new Set(claims.projects),
    // Write implies read: writes answer with whole records, so a write-only token could read
    // any record through them anyway.
    read: scopes.has(SCOPE_READ) || scopes.has(SCOPE_WRITE),
    write: scopes.has(SCOPE_WRITE),
  };
}

interface TokenClaims {
  sub: string;
  exp: number;
  projects: string[];
  scope: string;
}

function isTokenClaims(claims: unknown): claims is TokenClaims {
  if (typeof claims !== 'object' || claims === null) return false;
  const { sub, exp, projects, scope } = claims as Record<string, unknown>;
  return typeof sub === 'string' && sub !== ''
    && typeof exp === 'number' && Number.isFinite(exp)
    && Array.isArray(projects) && projects.every((project) => typeof project === 'string')
    && typeof scope === 'string';
}

/**
 * The secret as a key object, made once. Given a string, jsonwebtoken first tries to parse it
 * as a public key (and fails) on every verification: about 6% of a token request's CPU.
 */
export function tokenKey(secret: string): KeyObject {
  return createSecretKey(Buffer.from(secret, 'utf8'));
}

/** A JWT is three dot-separated parts; an API key never contains a dot. */
export function looksLikeJwt(bearer: string): boolean {
  return bearer.split('.').length === 3;
}
