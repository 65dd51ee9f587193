// An Operation: an Operation Object's own fields; an operationId the import made up (map.ts)
// is left out of the export.
import type { Fields } from '../../records/record-body.ts';
import { defined, type Json, type JsonObject } from '../../json/values.ts';
import { markOf } from '../../store/mark.ts';
import { sunsetOf } from '../lifecycle.ts';
import { list, nonEmpty, obj, onlyTrue, str, text, type KindMapping } from './mapping.ts';

export const operations: KindMapping = {
  fields: ['pathId', 'method', 'operationId', 'summary', 'description', 'deprecated', 'sunset', 'tags', 'externalDocs', 'security'],
  render: (record) => defined({
    operationId: markOf(record)?.generated?.includes('operationId') ? undefined : record['operationId'] as string,
    summary: text(record['summary']),
    description: text(record['description']),
    deprecated: onlyTrue(record['deprecated']),
    'x-sunset': text(record['sunset']),
    tags: nonEmpty(record['tags']),
    externalDocs: record['externalDocs'] as Json | undefined,
    security: record['security'] as Json | undefined,
  }),
};

/** The Operation's fields; `operationId`: the one it gives, or the one made up for it. */
export function operationFields(op: JsonObject, pathId: string, method: string, operationId: string): Fields {
  return {
    pathId,
    method,
    operationId,
    summary: str(op['summary']),
    description: str(op['description']),
    deprecated: op['deprecated'] === true,
    sunset: sunsetOf(op),
    tags: list(op['tags']).filter((tag) => typeof tag === 'string'),
    externalDocs: typeof obj(op['externalDocs'])['url'] === 'string' ? { url: obj(op['externalDocs'])['url'] } : undefined,
    security: Array.isArray(op['security']) ? op['security'] : undefined,
  };
}
