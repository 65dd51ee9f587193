// A Service: the document's `info` and top-level `security`; the rest of the document stays
// with it but what other records and the service's parts hold (map.ts).
import type { Fields } from '../../records/record-body.ts';
import { defined, type Json, type JsonObject } from '../../json/values.ts';
import { obj, str, text, type KindMapping } from './mapping.ts';
import { ownershipFields, ownershipInfo } from '../lifecycle.ts';

export const services: KindMapping = {
  fields: ['slug', 'organizationId', 'name', 'summary', 'description', 'security', 'owner', 'contact', 'lifecycle', 'links'],
  render: (record) => defined({
    openapi: '3.1.0',
    info: defined({ title: String(record['name'] ?? ''), summary: text(record['summary']), description: text(record['description']), ...ownershipInfo(record) }),
    security: record['security'] as Json | undefined,
  }),
};

/** The Service's fields from the document; `service`: the slug and project the import gives. */
export function serviceFields(document: JsonObject, service: Fields): Fields {
  const info = obj(document['info']);
  return {
    ...service,
    name: str(info['title']) ?? '',
    summary: str(info['summary']) ?? '',
    description: str(info['description']) ?? '',
    security: Array.isArray(document['security']) ? document['security'] : undefined,
    ...ownershipFields(info),
  };
}
