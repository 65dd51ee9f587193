// One delivery: the event's JSON POSTed to the subscription's URL, signed the Standard Webhooks
// way (`webhook-id` is the event's id, the same on every retry, so a receiver can drop a
// repeat; `webhook-timestamp`; `webhook-signature`), over a socket that connects only where the
// address guard allows. A 2xx answer delivers it; anything else, or no answer within the
// timeout, is a failed attempt.
import http from 'node:http';
import https from 'node:https';
import { Webhook } from 'standardwebhooks';
import { guardedLookup, urlProblem } from './address-guard.ts';
import type { Outcome } from './outbox.ts';

export interface Delivery { url: string; secret: string; eventId: string; body: string }

/** What the receiver is told it gets (CloudEvents' structured mode). */
const CONTENT_TYPE = 'application/cloudevents+json; charset=utf-8';

export async function send({ url, secret, eventId, body }: Delivery, options: { timeoutMs: number; allowPrivate: boolean }): Promise<Outcome> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  const problem = urlProblem(url, options.allowPrivate);
  if (problem) return { ok: false, error: `the URL ${problem}`, durationMs: took() };
  // The signed timestamp and the header's are one: the library signs whole seconds of it.
  const now = new Date();
  const signature = new Webhook(secret).sign(eventId, now, body);
  const headers = {
    'content-type': CONTENT_TYPE, 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'catalog-service-webhooks',
    'webhook-id': eventId, 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)), 'webhook-signature': signature,
  };
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise<Outcome>((resolve) => {
    const request = client.request(target, { method: 'POST', headers, lookup: guardedLookup(options.allowPrivate), timeout: options.timeoutMs }, (response) => {
      // The answer's body is not read beyond what it takes to free the socket.
      response.resume();
      response.on('end', () => {
        const status = response.statusCode ?? 0;
        resolve({ ok: status >= 200 && status < 300, status, durationMs: took() });
      });
      response.on('error', (error) => resolve({ ok: false, status: response.statusCode, error: error.message, durationMs: took() }));
    });
    const deadline = setTimeout(() => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)), options.timeoutMs);
    request.on('close', () => clearTimeout(deadline));
    request.on('timeout', () => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    request.on('error', (error) => resolve({ ok: false, error: error.message, durationMs: took() }));
    request.end(body);
  });
}
