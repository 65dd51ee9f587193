// An incoming OpenAPI document made ready for mapping, with the libraries doing the work:
// validated (400 with the validator's findings), upgraded to 3.1 (Swagger 2.0, with what the
// upgrade would drop kept first by swagger2.ts, and OpenAPI 3.0
// schemas become JSON Schema 2020-12; what of `x-webhooks` cannot be a 3.1 webhook is kept back
// by webhook-extensions.ts), and dereferenced, except the references that records
// keep: schemas (→ Resources) and headers (→ Headers) stay `#/components/...` references. The
// validation runs on a thread of its own meanwhile (validation.ts); its findings come first.
import { dereference, upgrade } from '@scalar/openapi-parser';
import { InvalidRequest, LOST_BY_UPGRADE } from '../errors.ts';
import { pointer } from '../json/pointer.ts';
import { isObject, type JsonObject } from '../json/values.ts';
import { RECORD_DEFAULTS } from '../config.ts';
import type { RecordLimits } from '../store/record-cost.ts';
import { boundedCopy, descriptionBounds, descriptionDepth, measureSent, type DescriptionBounds } from './expansion.ts';
import { keepThroughUpgrade } from './swagger2.ts';
import { restoreWebhookExtensions, takeWebhookExtensions } from './webhook-extensions.ts';
import { validateAside, type Findings } from './validation.ts';

const KEPT_REFS = ['#/components/schemas/', '#/components/headers/'];
// A key no OpenAPI object uses, so the dereferencer passes kept references by.
const HIDDEN = '$catalogKeptRef';

/**
 * The document ready for mapping, or refused (400) before it costs more than `limits` allow: its
 * nesting as sent, and its size and nesting once its references are resolved (expansion.ts).
 * The upgrade rewrites `input` in place: pass a copy of what you keep.
 */
export async function prepareDocument(input: unknown, limits: Pick<RecordLimits, 'maxDepth' | 'maxKeys'> = RECORD_DEFAULTS): Promise<JsonObject> {
  if (!isObject(input)) throw InvalidRequest.field('/', 'must be an OpenAPI document (a JSON or YAML object)');
  // Before anything recursive (the validator, the upgrade) reads it.
  const protoKeys: string[] = [];
  const bounds = descriptionBounds(limits, measureSent(input, descriptionDepth(limits), protoKeys));
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
    prepared = await upgradedAndDereferenced(input, bounds, protoKeys);
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

async function upgradedAndDereferenced(input: JsonObject, bounds: DescriptionBounds, protoKeys: readonly string[]): Promise<JsonObject> {
  const webhookExtensions = takeWebhookExtensions(input);
  const { specification } = upgrade(input as never);
  restoreWebhookExtensions(specification as JsonObject, webhookExtensions);
  let protoKeysKept = 0;
  const hidden = boundedCopy(specification, (key, value) => {
    if (key === '__proto__') protoKeysKept++;
    return key === '$ref' && isKeptRef(value) ? HIDDEN : key;
  }, bounds).value;
  // The upgrader assigns some keys where it moves them (Swagger 2.0's securityDefinitions), and
  // an assigned `__proto__` is lost: refused, naming them, rather than dropped without a word.
  if (protoKeysKept < protoKeys.length) throw new InvalidRequest(protoKeys.map((field) => ({ field, message: LOST_BY_UPGRADE })));
  const result = await dereference(hidden as never);
  if (result.errors && result.errors.length > 0) {
    throw new InvalidRequest(result.errors.map((error) => ({ field: fieldOf(error.path), message: error.message })));
  }
  // The dereferenced graph shares each target among the references to it: copied as a graph, so
  // the records are made from what the description holds, counted as the tree they repeat it in.
  return boundedCopy(result.schema, (key) => (key === HIDDEN ? '$ref' : key), bounds).value as JsonObject;
}

const isKeptRef = (value: unknown): boolean => typeof value === 'string' && KEPT_REFS.some((prefix) => value.startsWith(prefix));

function fieldOf(path: string | string[] | undefined): string {
  if (Array.isArray(path)) return path.length > 0 ? pointer(...path) : '/';
  return path || '/';
}
