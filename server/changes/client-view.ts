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
