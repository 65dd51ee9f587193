// What each record kind's module (this folder) declares: the record fields the import sets from
// an OpenAPI object and renders back, how it renders, and where on the rendered object the fields
// no mapping names travel (kinds.ts). The helpers below are the ones several kinds share.
import type { Fields } from '../../records/record-body.ts';
import { defined, isObject, setMember, type Json, type JsonObject } from '../../json/values.ts';

export interface KindMapping {
  /** The record fields the import sets from OpenAPI and export renders back. */
  readonly fields: readonly string[];
  /** The record as its OpenAPI object, from its own fields only (export.ts assembles the children). */
  readonly render: (record: Fields) => JsonObject;
  /** The object among the rendered (or original) one that holds `x-catalog-fields`: a Request's and a Response's Media Type Object. */
  readonly carrier?: (object: JsonObject, record: Fields) => JsonObject | undefined;
}

export const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
export const obj = (value: unknown): JsonObject => (isObject(value) ? value : {});
export const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** A text as rendered: none when empty. */
export const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
export const nonEmpty = (value: unknown): Json | undefined => {
  if (Array.isArray(value)) return value.length > 0 ? value as Json : undefined;
  if (isObject(value)) return Object.keys(value).length > 0 ? value : undefined;
  return undefined;
};
export const onlyTrue = (value: unknown): true | undefined => (value === true ? true : undefined);

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

/** What a Parameter and a Header render alike (OpenAPI's Header Object is a Parameter Object without `name` and `in`). */
export function describedLikeParameters(record: Fields): Record<string, unknown> {
  return { description: text(record['description']), required: onlyTrue(record['required']), deprecated: onlyTrue(record['deprecated']) };
}
