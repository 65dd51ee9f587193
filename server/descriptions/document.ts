// An incoming OpenAPI document made ready for mapping, with the libraries doing the work:
// validated (400 with the validator's findings), upgraded to 3.1 (Swagger 2.0, with what the
// upgrade would drop kept first by swagger2.ts, and OpenAPI 3.0
// schemas become JSON Schema 2020-12), and dereferenced, except the references that records
// keep: schemas (→ Resources) and headers (→ Headers) stay `#/components/...` references. The
// validation runs on a thread of its own meanwhile (validation.ts); its findings come first.
import { dereference, upgrade } from '@scalar/openapi-parser';
import { InvalidRequest } from '../errors.ts';
import { pointer } from '../json/pointer.ts';
import { isObject, type JsonObject } from '../json/values.ts';
import { keepThroughUpgrade } from './swagger2.ts';
import { validateAside, type Findings } from './validation.ts';

const KEPT_REFS = ['#/components/schemas/', '#/components/headers/'];
// A key no OpenAPI object uses, so the dereferencer passes kept references by.
const HIDDEN = '$catalogKeptRef';

/** The document ready for mapping. The upgrade rewrites `input` in place: pass a copy of what you keep. */
export async function prepareDocument(input: unknown): Promise<JsonObject> {
  if (!isObject(input)) throw InvalidRequest.field('/', 'must be an OpenAPI document (a JSON or YAML object)');
  // Judged as it is now, before the upgrade rewrites it. Awaited below; handled at once, so that
  // a validator failing while the upgrade runs is not an unhandled rejection meanwhile.
  const judged = validateAside(input);
  judged.catch(() => {});
  // Every version of the specification says a string; the validator lets any value by (and fills
  // in a missing one, which stays accepted), and the conformance run found `version: {}` imported.
  const info = input['info'];
  const badVersion = isObject(info) && info['version'] !== undefined && typeof info['version'] !== 'string';
  keepThroughUpgrade(input);
  let prepared: JsonObject;
  try {
    prepared = await upgradedAndDereferenced(input);
  } catch (error) {
    // An invalid document may fail anywhere in the upgrade: the validator's findings say why.
    refuseInvalid(await judged, badVersion);
    throw error;
  }
  refuseInvalid(await judged, badVersion);
  return prepared;
}

function refuseInvalid({ valid, errors }: Findings, badVersion: boolean): void {
  if (!valid) throw new InvalidRequest(errors.map((error) => ({ field: fieldOf(error.path), message: error.message })));
  if (badVersion) throw InvalidRequest.field('/info/version', 'must be string');
}

async function upgradedAndDereferenced(input: JsonObject): Promise<JsonObject> {
  const { specification } = upgrade(input as never);
  const hidden = rename(specification, '$ref', HIDDEN, true);
  const result = await dereference(hidden as never);
  if (result.errors && result.errors.length > 0) {
    throw new InvalidRequest(result.errors.map((error) => ({ field: fieldOf(error.path), message: error.message })));
  }
  return rename(result.schema, HIDDEN, '$ref', false) as JsonObject;
}

/** A copy with every kept reference's key renamed; a copy also breaks the sharing dereference leaves. */
function rename(value: unknown, from: string, to: string, onlyKept: boolean, seen: unknown[] = []): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (seen.includes(value)) throw InvalidRequest.field('/', 'holds a circular reference outside components.schemas');
  seen.push(value);
  try {
    if (Array.isArray(value)) return value.map((item) => rename(item, from, to, onlyKept, seen));
    const out: JsonObject = {};
    for (const [key, item] of Object.entries(value)) {
      const kept = key === from && typeof item === 'string' && (!onlyKept || KEPT_REFS.some((prefix) => item.startsWith(prefix)));
      out[kept ? to : key] = rename(item, from, to, onlyKept, seen) as never;
    }
    return out;
  } finally {
    seen.pop();
  }
}

function fieldOf(path: string | string[] | undefined): string {
  if (Array.isArray(path)) return path.length > 0 ? pointer(...path) : '/';
  return path || '/';
}
