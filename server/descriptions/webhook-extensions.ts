// What the upgrade to OpenAPI 3.1 would make invalid of a 3.0 (or Swagger 2.0) document's
// `x-webhooks`, the extension 3.1's `webhooks` came from: the upgrader renames the whole map,
// but 3.1's `webhooks` holds only Path Items (the official schema: a map of Path Item or
// Reference, with no extensions). Apideck's CRM and HRIS descriptions put `x-sdk-exclude: true`
// beside their webhooks, and their export was refused on re-import ("/webhooks/x-sdk-exclude:
// type must be object"); Nexmo's hold Callbacks (`{$request.body#/callback}: {post: …}`), which
// 3.1 refuses as Path Items. What cannot be a webhook is taken out before the upgrade and kept
// in `x-webhooks`, a root extension 3.1 allows, where the export gives it back as data.
import { isObject, type JsonObject } from '../json/values.ts';

const LEGACY = 'x-webhooks';

/**
 * Takes out of `document`'s `x-webhooks` (changed in place) what the upgrade would make an invalid
 * webhook, when the upgrade is going to rename it to `webhooks`: its extensions (`x-` keys, as on
 * every OpenAPI map that allows them) and any value that is not a Path Item (an object of a Path
 * Item's fields). A map left with nothing else goes whole, so the upgrade makes no empty `webhooks`.
 */
export function takeWebhookExtensions(document: JsonObject): JsonObject | undefined {
  const legacy = document[LEGACY];
  if (!isObject(legacy) || 'webhooks' in document || !upgradedTo31(document)) return undefined;
  const taken = Object.fromEntries(Object.entries(legacy).filter(([name, value]) => !isWebhook(name, value)));
  if (Object.keys(taken).length === 0) return undefined;
  for (const name of Object.keys(taken)) delete legacy[name];
  if (Object.keys(legacy).length === 0) delete document[LEGACY];
  return taken;
}

/** Puts back into the upgraded document what takeWebhookExtensions took, as its `x-webhooks`. */
export function restoreWebhookExtensions(document: JsonObject, taken: JsonObject | undefined): void {
  if (taken !== undefined) document[LEGACY] = taken;
}

// A Path Item's fields (the same in 3.0 and 3.1); any other key but an extension makes it invalid.
const PATH_ITEM_FIELDS = new Set(['$ref', 'summary', 'description', 'servers', 'parameters', 'get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

const isWebhook = (name: string, value: unknown): boolean =>
  !name.startsWith('x-') && isObject(value) && Object.keys(value).every((key) => PATH_ITEM_FIELDS.has(key) || key.startsWith('x-'));

/** The documents whose `x-webhooks` the upgrader renames: OpenAPI 3.0, and Swagger 2.0 on its way through 3.0. */
function upgradedTo31(document: JsonObject): boolean {
  const openapi = document['openapi'];
  return document['swagger'] === '2.0' || (typeof openapi === 'string' && openapi.startsWith('3.0'));
}
