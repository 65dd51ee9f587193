// A Response: one media type of an operation's response of one status code (`default`: null).
import type { Fields } from '../../records/record-body.ts';
import { defined, type JsonObject } from '../../json/values.ts';
import { keptHeaders, nonEmpty, str, type KindMapping } from './mapping.ts';
import { inMediaType, mediaFields, renderedContent } from './media.ts';

export const responses: KindMapping = {
  fields: ['operationId', 'statusCode', 'contentMediaType', 'description', 'schema', 'examples', 'headers'],
  render: (record) => defined({
    description: typeof record['description'] === 'string' ? record['description'] : '',
    headers: nonEmpty(record['headers']),
    content: renderedContent(record),
  }),
  carrier: inMediaType,
};

export function responseFields(response: JsonObject, operationId: string, statusCode: number | null, type: string | null, media: JsonObject): Fields {
  return {
    operationId, statusCode, contentMediaType: type, description: str(response['description']), ...mediaFields(media),
    headers: keptHeaders(response['headers']),
  };
}
