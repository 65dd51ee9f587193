// What a sample of an operation must send, read from the description itself (not from the
// catalog's records): the operations drawn with a seeded generator, each with its path as a
// pattern, its required query parameters, headers and cookies, where its first security
// alternative puts the credential, and its body's media type with a validator of its schema.
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { isDeepStrictEqual } from 'node:util';
import type { Call } from '../../support/sample-calls.ts';
import { mulberry32 } from '../../support/random.ts';

type Json = Record<string, unknown>;

export interface Drawn {
  name: string;
  slug: string;
  operationId: string;
  method: string;
  path: string;
  pathPattern: RegExp;
  query: string[];
  headers: string[];
  cookies: string[];
  credential: Array<{ in: string; name: string }>;
  /** `file`: the body is a file's content itself (`format: binary` of a media type other than a form). */
  body?: { mediaType: string; validate?: ValidateFunction; required: string[]; binary: string[]; file: boolean; own: unknown[] };
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** `count` operations with an operationId, drawn evenly over the descriptions as far as each has them, the rest from all (seeded). */
export function drawOperations(documents: ReadonlyMap<string, Json>, count: number, seed: number): Drawn[] {
  const random = mulberry32(seed);
  const pools = [...documents].map(([name, document]) => shuffled(operationsOf(name, document), random));
  const each = Math.floor(count / pools.length);
  const drawn = pools.flatMap((pool) => pool.splice(0, each));
  drawn.push(...shuffled(pools.flat(), random).slice(0, count - drawn.length));
  const validators = new Map<string, Ajv>();
  return drawn.map((operation) => described(operation, documents.get(operation.name)!, validators));
}

/** Every operation with an operationId of the descriptions, in their order. */
export function allOperations(documents: ReadonlyMap<string, Json>): Drawn[] {
  const validators = new Map<string, Ajv>();
  return [...documents].flatMap(([name, document]) => operationsOf(name, document).map((operation) => described(operation, document, validators)));
}

interface Listed { name: string; method: string; path: string; item: Json; operation: Json }

function operationsOf(name: string, document: Json): Listed[] {
  return Object.entries(object(document['paths'])).flatMap(([path, item]) => METHODS
    .filter((method) => typeof object(object(item)[method])['operationId'] === 'string')
    .map((method) => ({ name, method, path, item: object(item), operation: object(object(item)[method]) })));
}

function described(listed: Listed, document: Json, validators: Map<string, Ajv>): Drawn {
  const resolve = (value: unknown) => resolved(document, value);
  const own = (Array.isArray(listed.operation['parameters']) ? listed.operation['parameters'] : []).map(resolve);
  const inherited = (Array.isArray(listed.item['parameters']) ? listed.item['parameters'] : []).map(resolve)
    .filter((parameter) => !own.some((mine) => mine['name'] === parameter['name'] && mine['in'] === parameter['in']));
  const required = [...inherited, ...own].filter((parameter) => parameter['required'] === true);
  const named = (place: string) => required.filter((parameter) => parameter['in'] === place).map((parameter) => String(parameter['name']));
  const pattern = listed.path.replace(/#.*$/, '').split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^/]+');
  return {
    name: listed.name, slug: listed.name.replace(/\W+/g, '-'), operationId: String(listed.operation['operationId']),
    method: listed.method, path: listed.path, pathPattern: new RegExp(`${pattern}$`),
    query: named('query'), headers: named('header').filter((name) => !/^(accept|content-type|authorization)$/i.test(name)), cookies: named('cookie'),
    credential: credentialOf(document, listed.operation),
    ...bodyOf(listed, document, validators),
  };
}

function credentialOf(document: Json, operation: Json): Drawn['credential'] {
  const security = Array.isArray(operation['security']) ? operation['security'] : Array.isArray(document['security']) ? document['security'] : [];
  const schemes = object(object(document['components'])['securitySchemes']);
  return Object.keys(object(security[0])).flatMap((name) => {
    const scheme = resolved(document, schemes[name]);
    if (scheme['type'] === 'apiKey') return [{ in: String(scheme['in']), name: String(scheme['name']) }];
    if (['http', 'oauth2', 'openIdConnect'].includes(String(scheme['type']))) return [{ in: 'header', name: 'Authorization' }];
    return [];
  });
}

function bodyOf(listed: Listed, document: Json, validators: Map<string, Ajv>): Pick<Drawn, 'body'> {
  const content = object(resolved(document, listed.operation['requestBody'])['content']);
  const types = Object.keys(content);
  const mediaType = types.find((type) => /^application\/(.+\+)?json\b/i.test(type)) ?? types[0];
  if (mediaType === undefined) return {};
  const media = object(content[mediaType]);
  const schema = resolved(document, media['schema']);
  const properties = { ...Object.assign({}, ...(Array.isArray(schema['allOf']) ? schema['allOf'] : []).map((part) => object(resolved(document, part)['properties']))), ...object(schema['properties']) };
  const requiredNames = [schema, ...(Array.isArray(schema['allOf']) ? schema['allOf'].map((part) => resolved(document, part)) : [])]
    .flatMap((part) => (Array.isArray(part['required']) ? part['required'].map(String) : []))
    .filter((name) => resolved(document, properties[name])['readOnly'] !== true);
  const binary = Object.entries(properties).filter(([, property]) => isBinary(resolved(document, property))).map(([name]) => name);
  const own = [media['example'], ...Object.values(object(media['examples'])).map((example) => resolved(document, example)['value']), schema['example']].filter((value) => value !== undefined);
  const file = !/^(multipart\/form-data|application\/x-www-form-urlencoded)$/i.test(mediaType) && isBinary(schema);
  return { body: { mediaType, required: requiredNames, binary, file, own, ...(/json/i.test(mediaType) && { validate: validatorOf(listed.name, document, validators, media['schema']) }) } };
}

function validatorOf(name: string, document: Json, validators: Map<string, Ajv>, schema: unknown): ValidateFunction | undefined {
  let ajv = validators.get(name);
  if (!ajv) {
    ajv = new Ajv({ strict: false, logger: false, validateSchema: false, allErrors: false, verbose: true });
    (addFormatsModule as unknown as (ajv: Ajv) => void)(ajv);
    ajv.addSchema({ $id: 'description', components: requestView(object(document['components'])) });
    validators.set(name, ajv);
  }
  try {
    return ajv.compile({ $id: `body-${Math.random()}`, ...withRefsTo(object(schema)) });
  } catch {
    return undefined;
  }
}

/** A body's schema with its local `$ref`s pointing into the description registered as `description`. */
function withRefsTo(schema: Json): Json {
  return withoutExamples(JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/', '"$ref":"description#/'))) as Json;
}

/** The components as a request sees them: a required property that is readOnly is not sent (OpenAPI 3.0 4.7.25.1). */
function requestView(components: Json): Json {
  const copy = withRefsTo(components);
  const root = { components: copy };
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(walk);
    if (typeof value !== 'object' || value === null) return;
    const schema = value as Json;
    if (Array.isArray(schema['required']) && typeof schema['properties'] === 'object') {
      const properties = object(schema['properties']);
      schema['required'] = schema['required'].filter((name) => resolved(root, properties[String(name)], 'description#/')['readOnly'] !== true);
    }
    Object.values(schema).forEach(walk);
  };
  walk(copy);
  return copy;
}

/** Schemas with their examples as JSON text, which Ajv would otherwise read as schemas (Box's hold `$id`s); a property named `example` stays. */
function withoutExamples(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((each) => withoutExamples(each));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([name, member]) => (key !== 'properties' && (name === 'example' || name === 'examples')
    ? [`x-${name}-json`, JSON.stringify(member)]
    : [name, withoutExamples(member, name)])));
}

/** What is wrong with the body a sample sends; `ownExample` where it is the description's own example that its schema refuses. */
export function bodyCheck(body: NonNullable<Drawn['body']>, call: Call): { problems: string[]; ownExample?: string } {
  const problems: string[] = [];
  if (/^(multipart\/form-data|application\/x-www-form-urlencoded)$/i.test(body.mediaType)) {
    const form = call.form ?? [];
    for (const name of body.required) if (!form.some(([field]) => field === name)) problems.push(`form field ${name} missing`);
    if (/multipart/i.test(body.mediaType)) {
      for (const name of body.binary) if (form.some(([field, value]) => field === name && !value.startsWith('file:'))) problems.push(`form field ${name} is not a file`);
    }
    return { problems };
  }
  if (body.file) return { problems: call.body?.startsWith('file:') ? [] : [`body is not sent from a file: ${String(call.body).slice(0, 80)}`] };
  if (!body.validate) return { problems };
  let sent: unknown;
  try {
    sent = JSON.parse(call.body ?? '');
  } catch {
    return { problems: [`body is not JSON: ${String(call.body).slice(0, 80)}`] };
  }
  if (body.validate(sent)) return { problems };
  const error = body.validate.errors?.[0];
  const text = `body refused at ${error?.instancePath || '/'}: ${error?.message} ${JSON.stringify(error?.params)}`;
  // The refused value is the description's own: its example of the body, or the example or default it gives the field.
  const field = (error?.parentSchema ?? {}) as Json;
  const own = body.own.some((example) => isDeepStrictEqual(example, sent))
    || [field['x-example-json'], JSON.stringify(field['default'])].some((value) => typeof value === 'string' && isDeepStrictEqual(JSON.parse(value), error?.data));
  return own ? { problems, ownExample: text } : { problems: [text] };
}

function isBinary(schema: Json): boolean {
  if (schema['type'] === 'array') return isBinary(object(schema['items']));
  return schema['format'] === 'binary' || typeof schema['contentMediaType'] === 'string';
}

/** A `$ref` to the description's own components followed (up to ten deep), else the value itself. */
function resolved(document: Json, value: unknown, prefix = '#/'): Json {
  let current = object(value);
  for (let hops = 0; hops < 10 && typeof current['$ref'] === 'string' && current['$ref'].startsWith(prefix); hops++) {
    const parts = current['$ref'].slice(prefix.length).split('/').map((part) => decodeURIComponent(part).replaceAll('~1', '/').replaceAll('~0', '~'));
    current = object(parts.reduce<unknown>((at, part) => object(at)[part], document));
  }
  return current;
}

function object(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

function shuffled<T>(items: T[], random: () => number): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}
