// A Header of `components.headers` (a Response's own headers stay on it: responses.ts).
import type { Fields } from '../../records/record-body.ts';
import { defined, isObject, type Json, type JsonObject } from '../../json/values.ts';
import { describedLikeParameters, keptExamples, nonEmpty, str, type KindMapping } from './mapping.ts';

export const headers: KindMapping = {
  fields: ['name', 'description', 'required', 'deprecated', 'style', 'explode', 'schema', 'examples'],
  render: (record) => defined({
    ...describedLikeParameters(record),
    style: record['style'] as string | undefined,
    explode: record['explode'] as boolean | undefined,
    schema: record['schema'] as Json | undefined,
    examples: nonEmpty(record['examples']),
  }),
};

export function headerFields(name: string, h: JsonObject): Fields {
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
