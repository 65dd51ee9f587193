// A service's document as its clients meet it, the one form both sides of a comparison are put
// in before diffing: what OpenAPI says an operation takes, whatever level the document said it at.
import { isObject, type JsonObject } from '../json/values.ts';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * A copy with each path's parameters moved into its operations: an operation's own parameter
 * overrides the path's of the same name and `in` (OpenAPI, Path Item Object), so a parameter
 * declared on the path and repeated on the operation is one parameter. api-smart-diff does this
 * move itself, but appends the path's list to each operation's (a repeated parameter twice, the
 * duplicates then paired differently on the two sides: asana reported "a required parameter was
 * added" against itself), and it does so in the documents it is given: hence a deep copy. The
 * path's servers likewise: an operation with servers of its own is served by those alone.
 */
export function clientView(document: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const copy = structuredClone(document) as JsonObject;
  if (!isObject(copy['paths'])) return copy;
  for (const item of Object.values(copy['paths'])) {
    if (!isObject(item)) continue;
    moveParameters(item);
    moveServers(item);
  }
  return copy;
}

/**
 * Both client views with their servers and security alternatives in one order. To a client
 * these are sets (any server, any one alternative), but the library pairs list items by
 * position: the items both sides have go first in the same order, then what only one side has,
 * so reordering changes nothing and one server removed is that one removal.
 */
export function aligned(before: Record<string, unknown>, after: Record<string, unknown>): void {
  for (const [was, is] of holders(before, after)) {
    for (const field of ['servers', 'security']) {
      const [old, now] = [was[field], is[field]];
      if (!Array.isArray(old) || !Array.isArray(now)) continue;
      const byKey = new Map(now.map((entry) => [keyOfItem(entry), entry]));
      const shared = old.filter((entry) => byKey.has(keyOfItem(entry)));
      const sharedKeys = new Set(shared.map(keyOfItem));
      was[field] = [...shared, ...old.filter((entry) => !sharedKeys.has(keyOfItem(entry)))];
      is[field] = [...shared.map((entry) => byKey.get(keyOfItem(entry))!), ...now.filter((entry) => !sharedKeys.has(keyOfItem(entry)))];
    }
  }
}

/** The document and each operation present on both sides, as pairs. */
function holders(before: Record<string, unknown>, after: Record<string, unknown>): Array<[Record<string, unknown>, Record<string, unknown>]> {
  const pairs: Array<[Record<string, unknown>, Record<string, unknown>]> = [[before, after]];
  const [old, now] = [before['paths'], after['paths']];
  if (!isObject(old) || !isObject(now)) return pairs;
  for (const [path, item] of Object.entries(old)) {
    const other = now[path];
    if (!isObject(item) || !isObject(other)) continue;
    for (const method of METHODS) {
      if (isObject(item[method]) && isObject(other[method])) pairs.push([item[method], other[method]]);
    }
  }
  return pairs;
}

/** A server by its URL, a security alternative by its schemes and scopes. */
function keyOfItem(value: unknown): string {
  return isObject(value) && typeof value['url'] === 'string' ? value['url'] : JSON.stringify(value);
}

function moveParameters(item: JsonObject): void {
  if (!('parameters' in item)) return;
  const shared = Array.isArray(item['parameters']) ? item['parameters'] : [];
  delete item['parameters'];
  for (const method of METHODS) {
    const operation = item[method];
    if (!isObject(operation)) continue;
    const own = Array.isArray(operation['parameters']) ? operation['parameters'] : [];
    const overridden = new Set(own.filter(isObject).map(keyOf));
    const parameters = [...shared.filter((parameter) => !isObject(parameter) || !overridden.has(keyOf(parameter))), ...own];
    if (parameters.length > 0) operation['parameters'] = parameters;
  }
}

function moveServers(item: JsonObject): void {
  if (!('servers' in item)) return;
  const servers = item['servers'];
  delete item['servers'];
  for (const method of METHODS) {
    const operation = item[method];
    if (isObject(operation) && !('servers' in operation) && Array.isArray(servers) && servers.length > 0) operation['servers'] = servers;
  }
}

function keyOf(parameter: JsonObject): string {
  return JSON.stringify([parameter['name'], parameter['in']]);
}
