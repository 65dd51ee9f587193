// What the upgrade of a Swagger 2.0 document to OpenAPI 3.1 (@scalar/openapi-parser) would
// lose or leave invalid, laid onto the 2.0 document before it runs, as converters do:
// - a body parameter's name, which OpenAPI 3 has no place for: kept on its operation as
//   `x-codegen-request-body-name` (swagger2openapi, openapi-generator), so an export says it;
// - an OAuth2 scheme without `scopes`: the 2.0 validator lets it by, but OpenAPI 3.1 requires
//   a flow's `scopes` (even empty), so an export of Netlify's description was invalid and its
//   re-import refused (400 "must have required property 'scopes'").
import { unescapeToken } from '../json/pointer.ts';
import { isObject, type JsonObject } from '../json/values.ts';

export const BODY_NAME = 'x-codegen-request-body-name';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];

/** Lays onto a Swagger 2.0 document (changed in place) what its upgrade would drop; any other document is left as it is. */
export function keepThroughUpgrade(document: JsonObject): void {
  if (document['swagger'] !== '2.0') return;
  for (const scheme of Object.values(isObject(document['securityDefinitions']) ? document['securityDefinitions'] : {})) {
    if (isObject(scheme) && scheme['type'] === 'oauth2' && !isObject(scheme['scopes'])) scheme['scopes'] = {};
  }
  const named = isObject(document['parameters']) ? document['parameters'] : {};
  for (const item of Object.values(isObject(document['paths']) ? document['paths'] : {})) {
    if (!isObject(item)) continue;
    const shared = bodyName(item['parameters'], named);
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation) || BODY_NAME in operation) continue;
      const name = bodyName(operation['parameters'], named) ?? shared;
      if (name !== undefined) operation[BODY_NAME] = name;
    }
  }
}

const LOCAL_PARAMETER = '#/parameters/';

/** The name of the body parameter among `parameters`, following references to the document's own `parameters`. */
function bodyName(parameters: unknown, named: JsonObject): string | undefined {
  if (!Array.isArray(parameters)) return undefined;
  const resolved = parameters.map((parameter) => {
    const ref = isObject(parameter) ? parameter['$ref'] : undefined;
    return typeof ref === 'string' && ref.startsWith(LOCAL_PARAMETER) ? named[decodeToken(ref.slice(LOCAL_PARAMETER.length))] : parameter;
  });
  const body = resolved.find((parameter) => isObject(parameter) && parameter['in'] === 'body');
  return isObject(body) && typeof body['name'] === 'string' ? body['name'] : undefined;
}

function decodeToken(token: string): string {
  try {
    return unescapeToken(decodeURIComponent(token));
  } catch {
    return token;
  }
}
