// A Resource: a schema of `components.schemas`, rendered as the stored schema itself.
import type { Fields } from '../../records/record-body.ts';
import { isObject, type JsonObject } from '../../json/values.ts';
import type { KindMapping } from './mapping.ts';

export const resources: KindMapping = {
  fields: ['name', 'schema'],
  render: (record) => (isObject(record['schema']) ? record['schema'] : {}),
};

export function resourceFields(name: string, schema: JsonObject): Fields {
  return { name, schema };
}
