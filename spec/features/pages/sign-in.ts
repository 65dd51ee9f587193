// Signing in as a browser does, without one: the form fetched, its token and nonce cookie sent
// back with the credential in the password field; what comes back is the session cookie.
import { expect } from 'chai';
import supertest from 'supertest';
import type { Express } from 'express';

export interface SignedIn {
  /** The Cookie header that opens pages. */
  cookie: string;
  /** The session's form token (for sign-out), read from a page. */
  formToken: string;
  setCookie: string;
}

export async function formOf(app: Express): Promise<{ nonceCookie: string; signInToken: string }> {
  const form = await supertest(app).get('/sign-in').set('Accept', 'text/html');
  expect(form.status).to.equal(200);
  const nonceCookie = String(form.headers['set-cookie']).split(';')[0]!;
  const signInToken = /name="signInToken" value="([^"]+)"/.exec(form.text)![1]!;
  return { nonceCookie, signInToken };
}

export async function signIn(app: Express, credential: string): Promise<SignedIn> {
  const { nonceCookie, signInToken } = await formOf(app);
  const res = await supertest(app).post('/sign-in').set('Cookie', nonceCookie).set('Origin', 'http://catalog.test').set('Host', 'catalog.test')
    .type('form').send({ signInToken, credential, next: '/catalog' });
  expect(res.status, res.text).to.equal(303);
  const setCookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((line) => line.startsWith('catalog_session='))!;
  const cookie = setCookie.split(';')[0]!;
  const home = await supertest(app).get('/catalog').set('Cookie', cookie).set('Accept', 'text/html');
  expect(home.status).to.equal(200);
  const formToken = /name="formToken" value="([^"]+)"/.exec(home.text)![1]!;
  return { cookie, formToken, setCookie };
}
