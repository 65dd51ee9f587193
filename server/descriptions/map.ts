// OpenAPI 3.1 document (prepared by document.ts) → records, parent before children. Each
// object is yielded as a placement, with the record fields taken from it and the original
// object, so the sync can keep in kvStorage whatever the fields do not render back; the id sent
// back for it places its children. A generator, so that the sync can pause between records
// (slices.ts): Microsoft Graph maps to hundreds of thousands.
import type { Fields } from '../records/record-body.ts';
import { pointer } from '../json/pointer.ts';
import { madeUpOperationId } from '../ownership/operation-names.ts';
import { isObject, setMember, without, type JsonObject } from '../json/values.ts';
import { generatedEnum, keptExamples, keptHeaders } from './render.ts';
import { ownershipFields, sunsetOf } from './lifecycle.ts';
import { PARTED_COMPONENTS, PARTED_TOP_LEVEL } from './service-parts.ts';
import { itemsOn, listsOn, type Carrier, type ExtensionKind } from '../ownership/extension-kinds.ts';

export interface Placement {
  collection: string;
  fields: Fields;
  /** The OpenAPI object (or the part of it) this record stands for. */
  original: JsonObject;
  pointer: string;
  /** Fields the import made up; export leaves them out. */
  generated?: string[];
}

/** Stores (or plans) one record; its id, or undefined when it could not be carried (a warning says why). */
export type Place = (placement: Placement) => string | undefined;

/** The placements of a document in order; each `next` takes the id `Place` answered for the one before. */
export type Placements = Generator<Placement, void, string | undefined>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const obj = (value: unknown): JsonObject => (isObject(value) ? value : {});
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** The components a service keeps as records of its own, by section: the collection, and the record's fields from a component's name and object. */
const SERVICE_OWNED_COMPONENTS: Readonly<Record<string, { collection: string; fields: (name: string, component: JsonObject, serviceId: string) => Fields }>> = {
  schemas: { collection: 'resources', fields: (name, schema) => ({ name, schema }) },
  securitySchemes: { collection: 'security-schemes', fields: securitySchemeFields },
  headers: { collection: 'headers', fields: headerFields },
  examples: { collection: 'examples', fields: exampleFields },
};

function securitySchemeFields(name: string, s: JsonObject, serviceId: string): Fields {
  return {
    serviceId,
    name,
    type: s['type'] === 'mutualTLS' ? 'mutualTls' : s['type'],
    in: s['type'] === 'apiKey' ? s['in'] : undefined,
    description: str(s['description']),
    scheme: str(s['scheme']),
    bearerFormat: str(s['bearerFormat']),
    flows: isObject(s['flows']) ? s['flows'] : undefined,
    openIdConnectUrl: str(s['openIdConnectUrl']),
  };
}

function headerFields(name: string, h: JsonObject): Fields {
  return {
    name,
    description: str(h['description']),
    required: typeof h['required'] === 'boolean' ? h['required'] : undefined,
    deprecated: typeof h['deprecated'] === 'boolean' ? h['deprecated'] : undefined,
    style: h['style'] === 'simple' ? 'simple' : undefined,
    explode: typeof h['explode'] === 'boolean' ? h['explode'] : undefined,
    schema: isObject(h['schema']) ? h['schema'] : undefined,
    examples: keptExamples(h['examples']),
  };
}

function exampleFields(name: string, e: JsonObject): Fields {
  const external = str(e['externalValue']);
  return {
    name,
    summary: str(e['summary']),
    description: str(e['description']),
    value: 'value' in e ? e['value'] : undefined,
    externalValue: external !== undefined && URL.canParse(external) ? external : undefined,
  };
}

/** Places every record of `document` at once (see placements for one at a time). */
export function mapDocument(document: JsonObject, service: Fields, place: Place, extensions: readonly ExtensionKind[] = []): void {
  const steps = placements(document, service, extensions);
  for (let step = steps.next(); !step.done; step = steps.next(place(step.value)));
}

/** The records of the lists of the extension kinds on a Service's, Path's or Operation's object, after it (extension-kinds.ts). */
function* extended(extensions: readonly ExtensionKind[], parent: Carrier, object: JsonObject, parentId: string, at: string): Placements {
  for (const kind of extensions) {
    if (kind.parent !== parent) continue;
    for (const { fields, original, index } of itemsOn(kind, object, parentId)) {
      yield { collection: kind.collection.name, fields, original, pointer: `${at}${pointer(kind.extension, index)}` };
    }
  }
}

export function* placements(document: JsonObject, service: Fields, extensions: readonly ExtensionKind[] = []): Placements {
  const info = obj(document['info']);
  const components = obj(document['components']);
  const serviceId = yield {
    collection: 'services',
    fields: {
      ...service,
      name: str(info['title']) ?? '',
      summary: str(info['summary']) ?? '',
      description: str(info['description']) ?? '',
      security: Array.isArray(document['security']) ? document['security'] : undefined,
      ...ownershipFields(info),
    },
    // Everything the records below do not carry stays with the service (info.version, tags,
    // ...), but webhooks and the component sections no record kind holds: kept as parts beside it (service-parts.ts).
    original: {
      ...without(document, 'paths', 'servers', ...PARTED_TOP_LEVEL, ...listsOn(extensions, 'services', document)),
      ...(Object.keys(components).length > 0 ? { components: without(components, ...Object.keys(SERVICE_OWNED_COMPONENTS), ...PARTED_COMPONENTS) } : {}),
    },
    pointer: '',
  };
  if (!serviceId) return;
  yield* extended(extensions, 'services', document, serviceId, '');

  for (const [section, { collection, fields }] of Object.entries(SERVICE_OWNED_COMPONENTS)) {
    for (const [name, value] of Object.entries(obj(components[section]))) {
      const component = obj(value);
      yield { collection, fields: fields(name, component, serviceId), original: component, pointer: pointer('components', section, name) };
    }
  }

  yield* servers(document['servers'], { serviceId }, '');
  const names = operationIds(document);
  for (const [path, item] of Object.entries(obj(document['paths']))) {
    const pathItem = obj(item);
    const at = pointer('paths', path);
    const pathId = yield {
      collection: 'paths',
      fields: { serviceId, path, summary: str(pathItem['summary']), description: str(pathItem['description']) },
      original: without(pathItem, 'parameters', 'servers', ...METHODS, ...listsOn(extensions, 'paths', pathItem)),
      pointer: at,
    };
    if (!pathId) continue;
    yield* extended(extensions, 'paths', pathItem, pathId, at);
    yield* parameters(pathItem['parameters'], { pathId }, at);
    yield* servers(pathItem['servers'], { pathId }, at);
    for (const method of METHODS) {
      if (!isObject(pathItem[method])) continue;
      yield* operation(pathItem[method], method, path, pathId, `${at}/${method}`, names, extensions);
    }
  }
}

/** `2XX`-style keys: a Response's statusCode is a number, so these have no record of their own. */
const isStatusRange = (status: string): boolean => /^[1-5]XX$/i.test(status);

/** The operationIds the document gives, to which names made up for the others are added as they are made. */
function operationIds(document: JsonObject): Set<string> {
  const given = Object.values(obj(document['paths'])).flatMap((item) => METHODS.map((method) => obj(obj(item)[method])['operationId']));
  return new Set(given.filter((id) => typeof id === 'string'));
}

function* operation(op: JsonObject, method: string, path: string, pathId: string, at: string, names: Set<string>, extensions: readonly ExtensionKind[]): Placements {
  // Status code ranges stay with the operation, in its kvStorage (as everything the records have
  // no field for): export lays them back under `responses`. Microsoft Graph answers every
  // operation with 4XX and 5XX, and most with 2XX.
  const ranges = Object.fromEntries(Object.entries(obj(op['responses'])).filter(([status]) => isStatusRange(status)));
  const given = str(op['operationId']);
  const name = given ?? madeUpOperationId(method, path, names);
  names.add(name);
  const operationId = yield {
    collection: 'operations',
    fields: {
      pathId,
      method,
      operationId: name,
      summary: str(op['summary']),
      description: str(op['description']),
      deprecated: op['deprecated'] === true,
      sunset: sunsetOf(op),
      tags: list(op['tags']).filter((tag) => typeof tag === 'string'),
      externalDocs: typeof obj(op['externalDocs'])['url'] === 'string' ? { url: obj(op['externalDocs'])['url'] } : undefined,
      security: Array.isArray(op['security']) ? op['security'] : undefined,
    },
    original: { ...without(op, 'parameters', 'requestBody', 'responses', 'servers', ...listsOn(extensions, 'operations', op)), ...(Object.keys(ranges).length > 0 ? { responses: ranges } : {}) },
    pointer: at,
    ...(given === undefined ? { generated: ['operationId'] } : {}),
  };
  if (!operationId) return;
  yield* extended(extensions, 'operations', op, operationId, at);
  yield* parameters(op['parameters'], { operationId }, at);
  yield* servers(op['servers'], { operationId }, at);

  if (isObject(op['requestBody'])) {
    const body = op['requestBody'];
    for (const { type, media, original, where } of perMediaType(body, `${at}/requestBody`)) {
      yield {
        collection: 'requests',
        fields: { operationId, contentMediaType: type, description: str(body['description']), ...mediaFields(media) },
        original,
        pointer: where,
      };
    }
  }

  for (const [status, value] of Object.entries(obj(op['responses']))) {
    if (isStatusRange(status)) continue;
    const response = obj(value);
    const statusCode = status === 'default' ? null : Number(status);
    for (const { type, media, original, where } of perMediaType(response, `${at}${pointer('responses', status)}`)) {
      yield {
        collection: 'responses',
        fields: {
          operationId, statusCode, contentMediaType: type, description: str(response['description']), ...mediaFields(media),
          headers: keptHeaders(response['headers']),
        },
        original,
        pointer: where,
      };
    }
  }
}

/**
 * A request body's or response's records, one per media type of its `content` (none: one with
 * contentMediaType null): the type, its Media Type Object, the original object with only that
 * type's content, and the pointer to it.
 */
function* perMediaType(owner: JsonObject, at: string): Generator<{ type: string | null; media: JsonObject; original: JsonObject; where: string }> {
  const content = obj(owner['content']);
  const types = Object.keys(content);
  for (const type of types.length > 0 ? types : [null]) {
    const media = type === null ? {} : obj(content[type]);
    yield { type, media, original: { ...without(owner, 'content'), ...(type === null ? {} : { content: { [type]: media } }) }, where: `${at}${type === null ? '' : pointer('content', type)}` };
  }
}

/** The fields a Request and a Response take from a Media Type Object. */
function mediaFields(media: JsonObject): Fields {
  return { schema: isObject(media['schema']) ? media['schema'] : undefined, examples: keptExamples(media['examples']) };
}

function* parameters(value: unknown, owner: Fields, at: string): Placements {
  for (const [index, parameter] of list(value).entries()) {
    const p = obj(parameter);
    yield {
      collection: 'parameters',
      fields: {
        ...owner,
        name: p['name'],
        in: p['in'],
        description: str(p['description']),
        required: p['required'] === true,
        deprecated: p['deprecated'] === true,
        sunset: sunsetOf(p),
        allowEmptyValue: p['allowEmptyValue'] === true,
        schema: isObject(p['schema']) ? p['schema'] : {},
        examples: keptExamples(p['examples']),
      },
      original: p,
      pointer: `${at}${pointer('parameters', index)}`,
    };
  }
}

function* servers(value: unknown, owner: Fields, at: string): Placements {
  for (const [index, server] of list(value).entries()) {
    const s = obj(server);
    const variables: JsonObject = {};
    const generated: string[] = [];
    for (const [name, variable] of Object.entries(obj(s['variables']))) {
      const v = obj(variable);
      const value = String(v['default'] ?? '');
      const values = Array.isArray(v['enum']) && v['enum'].length > 0 ? v['enum'].map(String) : undefined;
      // A record's server variable needs an enum of at least one value (the contract); OpenAPI's
      // is optional. Without one the default is the value the document certainly allows; the
      // mark says the enum was made up, so export leaves it out (GitHub Enterprise's servers).
      if (!values) generated.push(generatedEnum(name));
      setMember(variables, name, { default: value, enum: values ?? [value] });
    }
    yield {
      collection: 'servers',
      fields: { ...owner, url: s['url'], description: str(s['description']), variables },
      original: s,
      pointer: `${at}${pointer('servers', index)}`,
      ...(generated.length > 0 ? { generated } : {}),
    };
  }
}
