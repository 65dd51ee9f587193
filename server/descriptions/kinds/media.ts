// What a Request and a Response share: one record per media type of a request body's or a
// response's `content`, its schema and examples taken from the Media Type Object and rendered
// back into it, which also carries the record's `x-catalog-fields`.
import type { Fields } from '../../records/record-body.ts';
import { pointer } from '../../json/pointer.ts';
import { defined, isObject, without, type JsonObject } from '../../json/values.ts';
import { keptExamples, nonEmpty, obj } from './mapping.ts';

/** The Media Type Object of the record's type in the rendered (or original) object; the object itself for a record of no media type. */
export function inMediaType(object: JsonObject, record: Fields): JsonObject | undefined {
  const type = record['contentMediaType'];
  if (typeof type !== 'string') return object;
  const content = object['content'];
  return isObject(content) && isObject(content[type]) ? content[type] : undefined;
}

/**
 * A request body's or response's records, one per media type of its `content` (none: one with
 * contentMediaType null): the type, its Media Type Object, the original object with only that
 * type's content, and the pointer to it.
 */
export function* perMediaType(owner: JsonObject, at: string): Generator<{ type: string | null; media: JsonObject; original: JsonObject; where: string }> {
  const content = obj(owner['content']);
  const types = Object.keys(content);
  for (const type of types.length > 0 ? types : [null]) {
    const media = type === null ? {} : obj(content[type]);
    yield { type, media, original: { ...without(owner, 'content'), ...(type === null ? {} : { content: { [type]: media } }) }, where: `${at}${type === null ? '' : pointer('content', type)}` };
  }
}

/** The fields a Request and a Response take from a Media Type Object. */
export function mediaFields(media: JsonObject): Fields {
  return { schema: isObject(media['schema']) ? media['schema'] : undefined, examples: keptExamples(media['examples']) };
}

/** The record's `content`: its media type with its schema and examples. */
export function renderedContent(record: Fields): JsonObject | undefined {
  const type = record['contentMediaType'];
  if (typeof type !== 'string') return undefined;
  return { [type]: defined({ schema: nonEmpty(record['schema']) ?? (isObject(record['schema']) ? {} : undefined), examples: nonEmpty(record['examples']) }) };
}
