// The validation thread (validation.ts starts it): each task a description, serialised; each
// answer the validator's findings on it.
import v8 from 'node:v8';
import { validate } from '@scalar/openapi-parser';

export interface Findings {
  valid: boolean;
  errors: { path?: string | string[]; message: string }[];
}

/** The validator's findings on `document` (it fills in what it needs, e.g. info.version, on the object it is given: pass one you do not keep). */
async function findingsOn(document: unknown): Promise<Findings> {
  const { valid, errors } = await validate(document as never);
  return { valid, errors: (errors ?? []).map(({ path, message }) => ({ ...(path === undefined ? {} : { path }), message })) };
}

export default function findingsOnSerialised(serialised: Uint8Array): Promise<Findings> {
  return findingsOn(v8.deserialize(serialised));
}
