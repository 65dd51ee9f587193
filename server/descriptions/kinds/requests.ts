// A Request: one media type of an operation's request body.
import type { Fields } from '../../records/record-body.ts';
import { defined, type JsonObject } from '../../json/values.ts';
import { str, text, type KindMapping } from './mapping.ts';
import { inMediaType, mediaFields, renderedContent } from './media.ts';

export const requests: KindMapping = {
  fields: ['operationId', 'contentMediaType', 'description', 'schema', 'examples'],
  render: (record) => defined({ description: text(record['description']), content: renderedContent(record) }),
  carrier: inMediaType,
};

export function requestFields(body: JsonObject, operationId: string, type: string | null, media: JsonObject): Fields {
  return { operationId, contentMediaType: type, description: str(body['description']), ...mediaFields(media) };
}
