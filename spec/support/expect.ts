// Assertions on the interface's error shape: exactly `error`, and `details` only when present.
import { expect } from 'chai';
import type { Response } from 'supertest';
import type { Error as ErrorBody } from '../../server/schemas/generated/types.ts';

export function expectError(res: Response, status: number, error: string, details?: unknown): void {
  expect(res.status, `status (body ${JSON.stringify(res.body)})`).to.equal(status);
  expect(res.headers['content-type']).to.match(/^application\/json/);
  expect(res.body).to.be.an('object');
  const body = res.body as ErrorBody;
  expect(body.error).to.equal(error);
  expect(Object.keys(body).filter((key) => key !== 'error' && key !== 'details')).to.deep.equal([]);
  if (details !== undefined) expect(body.details).to.deep.equal(details);
}

/** The details of a write refused because the credential may only read (server/errors.ts). */
export const READ_ONLY = [{ field: 'Authorization', message: 'the credential is read-only' }];

/** A 400 whose details name `field` (a JSON pointer or a parameter name). */
export function expectInvalid(res: Response, field: string): void {
  expectError(res, 400, 'Invalid request');
  expect(res.body.details, JSON.stringify(res.body)).to.be.an('array').that.is.not.empty;
  expect(res.body.details.map((detail: { field: string }) => detail.field)).to.include(field);
}

/** The statuses of racing requests, counted: `{201: 1, 409: 11}`. */
export function tally(responses: readonly Response[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status } of responses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}
