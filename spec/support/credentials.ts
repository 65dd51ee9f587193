// Credentials crafted by hand, for the authentication tests: JWTs with any header, claims and
// signature (including the ones jsonwebtoken refuses to sign), and API keys that look right
// but are not. Everything a real client could send, nothing the service would issue.
import { createHmac, createSign, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { SCOPE_READ, SCOPE_WRITE, TOKEN_AUDIENCE } from '../../server/auth/tokens.ts';
import { API_KEY_PREFIX } from '../../server/tenancy/keys.ts';
import { JWT_SECRET } from './catalog.ts';

export type Claims = Record<string, unknown>;

export const BOTH_SCOPES = `${SCOPE_READ} ${SCOPE_WRITE}`;

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/**
 * The claims the service issues (sub, aud, exp, projects, scope), with `overrides` applied;
 * an override of `undefined` removes the claim.
 */
export function claims(projects: readonly string[], overrides: Claims = {}): Claims {
  const all: Claims = {
    sub: 'crafted@example.com', aud: TOKEN_AUDIENCE, iat: nowSeconds(), exp: nowSeconds() + 3600,
    projects: [...projects], scope: BOTH_SCOPES, ...overrides,
  };
  return Object.fromEntries(Object.entries(all).filter(([, value]) => value !== undefined));
}

export type Signing =
  | { alg: 'none' }
  | { alg: 'HS256' | 'HS384' | 'HS512'; secret?: string }
  | { alg: 'RS256'; privateKey: KeyObject };

/** A compact JWS of `payload`, signed as `signing` says (default HS256 with the test secret). */
export function craftJwt(payload: unknown, signing: Signing = { alg: 'HS256' }, header: Claims = {}): string {
  const input = `${encode({ alg: signing.alg, typ: 'JWT', ...header })}.${encode(payload)}`;
  return `${input}.${signature(input, signing)}`;
}

function signature(input: string, signing: Signing): string {
  switch (signing.alg) {
    case 'none':
      return '';
    case 'RS256':
      return createSign('RSA-SHA256').update(input).sign(signing.privateKey, 'base64url');
    default:
      return createHmac(`sha${signing.alg.slice(2)}`, signing.secret ?? JWT_SECRET).update(input).digest('base64url');
  }
}

function encode(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** A fresh RSA key pair (the private half signs RS256 tokens the service must refuse). */
export function rsaPrivateKey(): KeyObject {
  return generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
}

/** A token whose header and signature are genuine but whose payload was swapped for `payload`. */
export function withPayload(token: string, payload: unknown): string {
  const [header, , signed] = token.split('.');
  return `${header}.${encode(payload)}.${signed}`;
}

/** A secret of the API key form that no key was ever created with. */
export function unknownApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

/** `secret` with one character of its random part changed (to another base64url character). */
export function oneCharOff(secret: string): string {
  const at = secret.length - 5;
  const replacement = secret[at] === 'A' ? 'B' : 'A';
  return secret.slice(0, at) + replacement + secret.slice(at + 1);
}
