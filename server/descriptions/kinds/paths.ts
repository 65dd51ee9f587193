// A Path: a Path Item's summary and description (its operations, parameters and servers are records of their own).
import type { Fields } from '../../records/record-body.ts';
import { defined, type JsonObject } from '../../json/values.ts';
import { str, text, type KindMapping } from './mapping.ts';

export const paths: KindMapping = {
  fields: ['serviceId', 'path', 'summary', 'description'],
  render: (record) => defined({ summary: text(record['summary']), description: text(record['description']) }),
};

export function pathFields(serviceId: string, path: string, item: JsonObject): Fields {
  return { serviceId, path, summary: str(item['summary']), description: str(item['description']) };
}
