// What a description shared by reference, shared again in its export. The import dereferences
// every parameter, request body, response, example and schema but the named ones (records hold
// them whole), so an export assembled from records repeats each wherever it was used:
// DigitalOcean's 1.07 MB, which refers to parts of its first operations from all the others,
// came back as 6.1 MB. Here each repeat becomes a `$ref`: to the component it equals when the
// document has one (`#/components/parameters/...`, kept with the service), else to its first
// occurrence in the paths, as the description itself did (`#/paths/~1v2~1droplets/get/...`).
// Only where OpenAPI reads a `$ref` (never inside an example's value, a default or an enum),
// and, for a repeat, only where the reference is shorter than what it stands for. Equal as
// JSON (keys in any order) means the same once dereferenced, so a re-import of the export makes
// the same records. Only for documents handed out (the export route, MCP): the changes report
// and the pages read the assembled document whole.
import { createHash } from 'node:crypto';
import { escapeToken } from '../json/pointer.ts';
import { isObject, setMember, type Json, type JsonObject } from '../json/values.ts';

const COMPONENTS = '#/components/';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

type Kind = 'parameter' | 'requestBody' | 'response' | 'header' | 'example' | 'schema';

/** The component sections whose members a part may equal. */
const SECTIONS: Readonly<Record<string, Kind>> = { parameters: 'parameter', requestBodies: 'requestBody', responses: 'response', headers: 'header', examples: 'example' };

/** JSON Schema 2020-12's keywords holding one subschema, and those holding a map or a list of them. */
const SUBSCHEMA = ['additionalProperties', 'items', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', 'contentSchema'];
const SUBSCHEMA_MAPS = ['properties', 'patternProperties', 'dependentSchemas', '$defs'];
const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];

/** The document with its repeated parts shared by reference; `document` is left as it is. */
export function shareRepeated(document: JsonObject): JsonObject {
  if (!isObject(document['paths'])) return document;
  const shared = new Shared(isObject(document['components']) ? document['components'] : {});
  const paths: JsonObject = {};
  for (const [path, item] of Object.entries(document['paths'])) {
    // A `#` cannot stand in a reference's fragment: what a path holding one repeats stays written out.
    setMember(paths, path, isObject(item) && !path.includes('#') ? shared.pathItem(item, ['paths', path]) : item);
  }
  return { ...document, paths };
}

class Shared {
  /** Each part met, by kind and content: the reference that stands for it. */
  readonly #refs = new Map<string, string>();
  /** Each object's content digest and serialised size, computed once. */
  readonly #digests = new WeakMap<object, { digest: string; size: number }>();

  constructor(components: JsonObject) {
    for (const [section, kind] of Object.entries(SECTIONS)) {
      const members = components[section];
      if (!isObject(members)) continue;
      for (const [name, member] of Object.entries(members)) {
        if (isObject(member) && !('$ref' in member)) this.#refs.set(`${kind} ${this.#digest(member).digest}`, reference(['components', section, name]));
      }
    }
  }

  pathItem(item: JsonObject, at: string[]): JsonObject {
    const out = this.#within(item, at, { parameters: 'parameter' });
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const where = [...at, method];
      const shared = this.#within(operation, where, { parameters: 'parameter', requestBody: 'requestBody' });
      if (isObject(operation['responses'])) shared['responses'] = this.#members(operation['responses'], [...where, 'responses'], 'response');
      out[method] = shared;
    }
    return out;
  }

  /** A reference to an equal part met before, or the part remembered as met here with its own parts shared. */
  #part(kind: Kind, part: Json, at: string[]): Json {
    if (!isObject(part) || '$ref' in part) return part;
    const { digest, size } = this.#digest(part);
    const key = `${kind} ${digest}`;
    const met = this.#refs.get(key);
    // A component the description most likely referred to: always; a repeat: when the reference is shorter.
    if (met !== undefined && (met.startsWith(COMPONENTS) || met.length + 10 < size)) return { $ref: met };
    if (met === undefined) this.#refs.set(key, reference(at));
    return this.#inside(kind, part, at);
  }

  /** The parts a part holds, shared in turn. */
  #inside(kind: Kind, part: JsonObject, at: string[]): JsonObject {
    switch (kind) {
      case 'parameter':
      case 'header':
        return this.#within(part, at, { schema: 'schema', examples: 'example', content: 'media' });
      case 'requestBody':
        return this.#within(part, at, { content: 'media' });
      case 'response':
        return this.#within(part, at, { headers: 'header', content: 'media' });
      case 'schema': {
        const out = this.#within(part, at, Object.fromEntries([...SUBSCHEMA.map((key) => [key, 'schema']), ...SUBSCHEMA_MAPS.map((key) => [key, 'schemas'])]));
        for (const key of SUBSCHEMA_LISTS) {
          const list = part[key];
          if (Array.isArray(list)) out[key] = list.map((schema, index) => this.#part('schema', schema, [...at, key, String(index)]));
        }
        return out;
      }
      case 'example':
        return part;
    }
  }

  /**
   * A copy of `holder` with the members named in `how` shared: a single part of a kind, a list
   * of parameters, a map of parts (`schemas`, examples, headers), or a map of media types.
   */
  #within(holder: JsonObject, at: string[], how: Readonly<Record<string, Kind | 'media' | 'schemas'>>): JsonObject {
    const out: JsonObject = { ...holder };
    for (const [key, kind] of Object.entries(how)) {
      const value = holder[key];
      if (value === undefined) continue;
      const where = [...at, key];
      if (kind === 'media') out[key] = isObject(value) ? this.#media(value, where) : value;
      else if (kind === 'schemas') out[key] = isObject(value) ? this.#members(value, where, 'schema') : value;
      else if (Array.isArray(value)) out[key] = value.map((member, index) => this.#part(kind, member, [...where, String(index)]));
      else if (kind === 'example' || kind === 'header') out[key] = isObject(value) ? this.#members(value, where, kind) : value;
      else out[key] = this.#part(kind, value, where);
    }
    return out;
  }

  #members(map: JsonObject, at: string[], kind: Kind): JsonObject {
    const out: JsonObject = {};
    // setMember: a member named __proto__ (a schema, an example) is data, not the prototype.
    for (const [name, member] of Object.entries(map)) setMember(out, name, this.#part(kind, member, [...at, name]));
    return out;
  }

  /** A map of Media Type Objects (never references themselves) with their schemas and examples shared. */
  #media(content: JsonObject, at: string[]): JsonObject {
    const out: JsonObject = {};
    for (const [type, media] of Object.entries(content)) setMember(out, type, isObject(media) ? this.#within(media, [...at, type], { schema: 'schema', examples: 'example' }) : media);
    return out;
  }

  /** A digest of the value's content, keys in any order, and its size as JSON (roughly). */
  #digest(value: Json): { digest: string; size: number } {
    if (typeof value !== 'object' || value === null) {
      const text = JSON.stringify(value);
      return { digest: text.length > 40 ? sha1(text) : `=${text}`, size: text.length };
    }
    const known = this.#digests.get(value);
    if (known) return known;
    let size = 2;
    const parts: string[] = [];
    const entries: [string, Json][] = Array.isArray(value) ? value.map((item, index) => [String(index), item]) : Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const [key, item] of entries) {
      const inner = this.#digest(item);
      size += inner.size + (Array.isArray(value) ? 1 : key.length + 4);
      parts.push(Array.isArray(value) ? inner.digest : `${JSON.stringify(key)}:${inner.digest}`);
    }
    const content = `${Array.isArray(value) ? 'a' : 'o'}${parts.join(',')}`;
    const digest = { digest: content.length > 40 ? sha1(content) : content, size };
    this.#digests.set(value, digest);
    return digest;
  }
}

function sha1(text: string): string {
  return createHash('sha1').update(text).digest('base64');
}

/**
 * The reference to a place given by its keys. Each token is escaped as a JSON pointer's, then as
 * a URI fragment's with encodeURI: the validator's dereferencer decodes with decodeURI, which
 * leaves `%3A` and the like as written, so only what encodeURI encodes may be encoded.
 */
function reference(keys: readonly string[]): string {
  return `#${keys.map((key) => `/${encodeURI(escapeToken(key))}`).join('')}`;
}
