// Each record kind rendered as its part of an OpenAPI 3.1 document, from its own fields only
// (children are assembled by export.ts). The import stores in kvStorage what the original
// object holds beyond this rendering, so render + kvStorage gives the original back.
import type { Fields } from '../records/record-body.ts';
import { pointer } from '../json/pointer.ts';
import { defined, isObject, setMember, without, type Json, type JsonObject } from '../json/values.ts';
import { markOf } from '../store/mark.ts';
import { ownershipInfo } from './lifecycle.ts';

type Render = (record: Fields) => JsonObject;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const nonEmpty = (value: unknown): Json | undefined => {
  if (Array.isArray(value)) return value.length > 0 ? value as Json : undefined;
  if (isObject(value)) return Object.keys(value).length > 0 ? value : undefined;
  return undefined;
};
const onlyTrue = (value: unknown): true | undefined => (value === true ? true : undefined);

/** `keep` of each member of a map (OpenAPI's examples, headers) that is an object, by its name; the others dropped. */
function keptMembers(map: unknown, keep: (member: JsonObject) => JsonObject): JsonObject {
  const out: JsonObject = {};
  if (isObject(map)) for (const [name, member] of Object.entries(map)) if (isObject(member)) setMember(out, name, keep(member));
  return out;
}

/** Examples as the records keep them: summary plus value, or summary plus externalValue. */
export function keptExamples(examples: unknown): JsonObject {
  return keptMembers(examples, (example) => {
    const summary = typeof example['summary'] === 'string' ? example['summary'] : undefined;
    return typeof example['externalValue'] === 'string' && !('value' in example)
      ? defined({ summary, externalValue: example['externalValue'] })
      : defined({ summary, value: example['value'] });
  });
}

/** Headers as responses keep them: a reference to a Header, or the inline fields the records have. */
export function keptHeaders(headers: unknown): JsonObject {
  return keptMembers(headers, (header) => (typeof header['$ref'] === 'string' ? { $ref: header['$ref'] } : defined({
    required: typeof header['required'] === 'boolean' ? header['required'] : undefined,
    deprecated: typeof header['deprecated'] === 'boolean' ? header['deprecated'] : undefined,
    schema: isObject(header['schema']) ? header['schema'] : undefined,
    examples: nonEmpty(keptExamples(header['examples'])),
  })));
}

/** How the mark names a server variable's enum the import made up (map.ts). */
export function generatedEnum(variable: string): string {
  return pointer('variables', variable, 'enum');
}

/** A server's variables, without the enums the import made up. */
function serverVariables(record: Fields): JsonObject {
  const generated = markOf(record)?.generated ?? [];
  const variables: JsonObject = {};
  for (const [name, variable] of Object.entries(isObject(record['variables']) ? record['variables'] : {})) {
    setMember(variables, name, isObject(variable) && generated.includes(generatedEnum(name)) ? without(variable, 'enum') : variable);
  }
  return variables;
}

function media(record: Fields): JsonObject | undefined {
  const type = record['contentMediaType'];
  if (typeof type !== 'string') return undefined;
  return { [type]: defined({ schema: nonEmpty(record['schema']) ?? (isObject(record['schema']) ? {} : undefined), examples: nonEmpty(record['examples']) }) };
}

/** What a Parameter and a Header render alike (OpenAPI's Header Object is a Parameter Object without `name` and `in`). */
function describedLikeParameters(record: Fields): Record<string, unknown> {
  return { description: text(record['description']), required: onlyTrue(record['required']), deprecated: onlyTrue(record['deprecated']) };
}

export const RENDER: Readonly<Record<string, Render>> = {
  services: (record) => defined({
    openapi: '3.1.0',
    info: defined({ title: String(record['name'] ?? ''), summary: text(record['summary']), description: text(record['description']), ...ownershipInfo(record) }),
    security: record['security'] as Json | undefined,
  }),
  servers: (record) => defined({ url: String(record['url']), description: text(record['description']), variables: nonEmpty(serverVariables(record)) }),
  paths: (record) => defined({ summary: text(record['summary']), description: text(record['description']) }),
  operations: (record) => defined({
    operationId: markOf(record)?.generated?.includes('operationId') ? undefined : record['operationId'] as string,
    summary: text(record['summary']),
    description: text(record['description']),
    deprecated: onlyTrue(record['deprecated']),
    'x-sunset': text(record['sunset']),
    tags: nonEmpty(record['tags']),
    externalDocs: record['externalDocs'] as Json | undefined,
    security: record['security'] as Json | undefined,
  }),
  parameters: (record) => defined({
    name: String(record['name']),
    in: String(record['in']),
    ...describedLikeParameters(record),
    'x-sunset': text(record['sunset']),
    allowEmptyValue: onlyTrue(record['allowEmptyValue']),
    schema: nonEmpty(record['schema']),
    examples: nonEmpty(record['examples']),
  }),
  requests: (record) => defined({ description: text(record['description']), content: media(record) }),
  responses: (record) => defined({
    description: typeof record['description'] === 'string' ? record['description'] : '',
    headers: nonEmpty(record['headers']),
    content: media(record),
  }),
  resources: (record) => (isObject(record['schema']) ? record['schema'] : {}),
  'security-schemes': (record) => defined({
    type: record['type'] === 'mutualTls' ? 'mutualTLS' : record['type'] as string,
    in: record['in'] as string | undefined,
    description: text(record['description']),
    scheme: record['scheme'] as string | undefined,
    bearerFormat: record['bearerFormat'] as string | undefined,
    flows: record['flows'] as Json | undefined,
    openIdConnectUrl: record['openIdConnectUrl'] as string | undefined,
  }),
  headers: (record) => defined({
    ...describedLikeParameters(record),
    style: record['style'] as string | undefined,
    explode: record['explode'] as boolean | undefined,
    schema: record['schema'] as Json | undefined,
    examples: nonEmpty(record['examples']),
  }),
  examples: (record) => defined({
    summary: text(record['summary']),
    description: text(record['description']),
    value: record['value'] as Json | undefined,
    externalValue: record['externalValue'] as string | undefined,
  }),
};
