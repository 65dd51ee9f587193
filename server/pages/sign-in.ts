// Sign-in and sign-out for people: a plain form posted once with the API key or token in a
// password field, answered with an HttpOnly, SameSite cookie naming a server-side session. A
// request from another origin can do neither: the `Origin` (and Fetch Metadata) must be this
// service, and the form must carry its token (before sign-in, bound to a nonce cookie; after, the
// session's own). Every attempt counts against the rate limit as a bearer header would: a wrong
// credential against the client address, so guessing here is as slow as on the interface.
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import express, { type Request, type Response } from 'express';
import { parse as parseCookies } from 'cookie';
import type { Authenticate, VerifyBearer } from '../auth/authenticate.ts';
import { TooManyRequests, Unauthorized } from '../errors.ts';
import type { RateLimiter } from '../http/rate-limit.ts';
import { sendPage } from './render.ts';
import type { PageSessions } from './sessions.ts';
import { isHttps, SESSION_COOKIE, type Visitors } from './visitors.ts';

export const SIGN_IN_PATH = '/sign-in';
export const SIGN_OUT_PATH = '/sign-out';
export const HOME_PATH = '/catalog';
const NONCE_COOKIE = 'catalog_sign_in';
const NONCE_LIFETIME_MS = 3_600_000;
/** A form holds one short field or two beside the credential; a JWT is well under 4 KB. */
const FORM_LIMIT = '16kb';

export interface SignInParts {
  sessions: PageSessions;
  visitors: Visitors;
  verify: VerifyBearer;
  limiter: RateLimiter;
  jwtSecret: string;
  sessionMs: number;
}

export function signInRouter(parts: SignInParts): express.Router {
  const router = express.Router({ strict: true, caseSensitive: true });
  const formKey = Buffer.from(hkdfSync('sha256', parts.jwtSecret, 'catalog-pages', 'sign-in form', 32));
  const tokenFor = (nonce: string) => createHmac('sha256', formKey).update(nonce).digest('base64url');
  const readForm = express.urlencoded({ extended: false, limit: FORM_LIMIT, parameterLimit: 5 });
  // The form's credential, checked and counted as the interface's bearer header is.
  const checkForm: Authenticate = parts.limiter.guard(async (req) => {
    const bearer = (formOf(req)['credential'] ?? '').trim();
    const credential = bearer === '' ? null : await parts.verify(bearer);
    if (!credential) throw new Unauthorized();
    return credential;
  });

  const showForm = (req: Request, res: Response, status: number, problem?: string): void => {
    const nonce = randomBytes(24).toString('base64url');
    res.cookie(NONCE_COOKIE, nonce, { httpOnly: true, sameSite: 'strict', secure: isHttps(req), path: SIGN_IN_PATH, maxAge: NONCE_LIFETIME_MS });
    sendPage(req, res, { template: 'sign-in', title: 'Sign in', data: { signInToken: tokenFor(nonce), next: localPath(req.query['next']), problem } }, { formToken: undefined }, status);
  };

  router.get(SIGN_IN_PATH, (req, res) => showForm(req, res, 200));

  router.post(SIGN_IN_PATH, readForm, async (req, res) => {
    const form = formOf(req);
    const nonce = cookieOf(req, NONCE_COOKIE);
    if (!sameOrigin(req) || nonce === undefined || !equal(form['signInToken'], tokenFor(nonce))) {
      return showForm(req, res, 403, 'This sign-in form came from somewhere else or has expired: sign in again here.');
    }
    try {
      await checkForm(req, res);
    } catch (error) {
      if (error instanceof Unauthorized) return showForm(req, res, 401, 'That API key or token is not valid (or no longer).');
      if (!(error instanceof TooManyRequests)) throw error;
      res.set(error.headers);
      return showForm(req, res, 429, `Too many sign-in attempts: try again in ${error.headers['Retry-After']} seconds.`);
    }
    const { id } = await parts.sessions.start((form['credential'] ?? '').trim());
    res.clearCookie(NONCE_COOKIE, { path: SIGN_IN_PATH });
    res.cookie(SESSION_COOKIE, id, { httpOnly: true, sameSite: 'lax', secure: isHttps(req), path: '/', maxAge: parts.sessionMs });
    res.redirect(303, localPath(form['next']));
  });

  router.post(SIGN_OUT_PATH, readForm, async (req, res) => {
    const visitor = await parts.visitors.of(req, res);
    const form = formOf(req);
    if (!visitor?.session) return res.redirect(303, SIGN_IN_PATH);
    if (!sameOrigin(req) || !equal(form['formToken'], visitor.session.formToken)) {
      return sendPage(req, res, { template: 'error', title: 'Not signed out', data: { message: 'This sign-out came from somewhere else: use the Sign out button of the catalog.' } }, { formToken: visitor.session.formToken }, 403);
    }
    await parts.sessions.end(visitor.session.id);
    res.clearCookie(SESSION_COOKIE, { path: '/' });
    res.redirect(303, SIGN_IN_PATH);
  });
  return router;
}

/** The sign-in page's address that returns to `url` afterwards. */
export function signInFor(url: string): string {
  return `${SIGN_IN_PATH}?next=${encodeURIComponent(url)}`;
}

/** Where to go after sign-in: a path of this service's pages only, never another site (`//evil`, `/\evil`). */
function localPath(value: unknown): string {
  return typeof value === 'string' && /^\/catalog(\/[^\\]*)?$/.test(value) && !value.startsWith('//') ? value : HOME_PATH;
}

function formOf(req: Request): Record<string, string | undefined> {
  const body = req.body as unknown;
  if (typeof body !== 'object' || body === null) return {};
  return Object.fromEntries(Object.entries(body).filter(([, value]) => typeof value === 'string')) as Record<string, string>;
}

function cookieOf(req: Request, name: string): string | undefined {
  return req.headers.cookie === undefined ? undefined : parseCookies(req.headers.cookie)[name];
}

/**
 * Browsers send `Origin` on every POST and `Sec-Fetch-Site` with it: when present they must say
 * this service. (A form from another site carries its own origin; the token stops the rest.)
 */
function sameOrigin(req: Request): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}

function equal(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const [a, b] = [Buffer.from(given), Buffer.from(expected)];
  return a.length === b.length && timingSafeEqual(a, b);
}
