// OpenAPI 3.1 document (prepared by document.ts) → records, parent before children. Each
// object is yielded as a placement, with the record fields taken from it and the original
// object, so the sync can keep in kvStorage whatever the fields do not render back; the id sent
// back for it places its children. A generator, so that the sync can pause between records
// (slices.ts): Microsoft Graph maps to hundreds of thousands.
import type { Fields } from '../records/record-body.ts';
import { pointer } from '../json/pointer.ts';
import { madeUpOperationId } from '../ownership/operation-names.ts';
import { isObject, without, type JsonObject } from '../json/values.ts';
import { list, obj, str } from './kinds/mapping.ts';
import { perMediaType } from './kinds/media.ts';
import { serviceFields } from './kinds/services.ts';
import { resourceFields } from './kinds/resources.ts';
import { pathFields } from './kinds/paths.ts';
import { operationFields } from './kinds/operations.ts';
import { parameterFields } from './kinds/parameters.ts';
import { requestFields } from './kinds/requests.ts';
import { responseFields } from './kinds/responses.ts';
import { serverFields } from './kinds/servers.ts';
import { securitySchemeFields } from './kinds/security-schemes.ts';
import { headerFields } from './kinds/headers.ts';
import { exampleFields } from './kinds/examples.ts';
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

/** The components a service keeps as records of its own, by section: the collection, and the record's fields from a component's name and object. */
const SERVICE_OWNED_COMPONENTS: Readonly<Record<string, { collection: string; fields: (name: string, component: JsonObject, serviceId: string) => Fields }>> = {
  schemas: { collection: 'resources', fields: resourceFields },
  securitySchemes: { collection: 'security-schemes', fields: securitySchemeFields },
  headers: { collection: 'headers', fields: headerFields },
  examples: { collection: 'examples', fields: exampleFields },
};

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
  const components = obj(document['components']);
  const serviceId = yield {
    collection: 'services',
    fields: serviceFields(document, service),
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
      fields: pathFields(serviceId, path, pathItem),
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
    fields: operationFields(op, pathId, method, name),
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
        fields: requestFields(body, operationId, type, media),
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
        fields: responseFields(response, operationId, statusCode, type, media),
        original,
        pointer: where,
      };
    }
  }
}

function* parameters(value: unknown, owner: Fields, at: string): Placements {
  for (const [index, parameter] of list(value).entries()) {
    const p = obj(parameter);
    yield {
      collection: 'parameters',
      fields: parameterFields(p, owner),
      original: p,
      pointer: `${at}${pointer('parameters', index)}`,
    };
  }
}

function* servers(value: unknown, owner: Fields, at: string): Placements {
  for (const [index, server] of list(value).entries()) {
    const s = obj(server);
    const { fields, generated } = serverFields(s, owner);
    yield {
      collection: 'servers',
      fields,
      original: s,
      pointer: `${at}${pointer('servers', index)}`,
      ...(generated.length > 0 ? { generated } : {}),
    };
  }
}
