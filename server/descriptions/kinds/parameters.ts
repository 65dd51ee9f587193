// A Parameter of a path or an operation.
import type { Fields } from '../../records/record-body.ts';
import { defined, isObject, type JsonObject } from '../../json/values.ts';
import { sunsetOf } from '../lifecycle.ts';
import { describedLikeParameters, keptExamples, nonEmpty, onlyTrue, str, text, type KindMapping } from './mapping.ts';

export const parameters: KindMapping = {
  fields: ['pathId', 'operationId', 'name', 'in', 'description', 'required', 'deprecated', 'sunset', 'allowEmptyValue', 'schema', 'examples'],
  render: (record) => defined({
    name: String(record['name']),
    in: String(record['in']),
    ...describedLikeParameters(record),
    'x-sunset': text(record['sunset']),
    allowEmptyValue: onlyTrue(record['allowEmptyValue']),
    schema: nonEmpty(record['schema']),
    examples: nonEmpty(record['examples']),
  }),
};

/** The Parameter's fields; `owner`: its `pathId` or `operationId`. */
export function parameterFields(p: JsonObject, owner: Fields): Fields {
  return {
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
  };
}
