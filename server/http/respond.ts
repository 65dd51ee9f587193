// The one place that writes an answer to Express's `res`: handlers return outcomes, errors
// become outcomes, and this adapter sends them.
import type { Response } from 'express';
import type { ApiError } from '../errors.ts';
import type { Outcome } from '../routes/route.ts';

export function send(res: Response, outcome: Outcome): void {
  if (outcome.headers) res.set(outcome.headers);
  res.status(outcome.status);
  if (outcome.body === undefined) res.end();
  // A string with its own Content-Type is sent as is (an HTML page, an exported YAML document).
  else if (typeof outcome.body === 'string' && outcome.headers?.['Content-Type']) res.send(outcome.body);
  else res.json(outcome.body);
}

export function errorOutcome(error: ApiError): Outcome {
  return { status: error.status, body: error.body(), headers: error.headers };
}

/** A text answer in another format than JSON (the Prometheus exposition). */
export function sendText(res: Response, status: number, contentType: string, text: string): void {
  res.status(status).type(contentType).send(text);
}
