// A Security scheme of the service, from `components.securitySchemes` (OpenAPI's `mutualTLS` is the record's `mutualTls`).
import type { Fields } from '../../records/record-body.ts';
import { defined, isObject, type Json, type JsonObject } from '../../json/values.ts';
import { str, text, type KindMapping } from './mapping.ts';

export const securitySchemes: KindMapping = {
  fields: ['serviceId', 'name', 'type', 'in', 'description', 'scheme', 'bearerFormat', 'flows', 'openIdConnectUrl'],
  render: (record) => defined({
    type: record['type'] === 'mutualTls' ? 'mutualTLS' : record['type'] as string,
    in: record['in'] as string | undefined,
    description: text(record['description']),
    scheme: record['scheme'] as string | undefined,
    bearerFormat: record['bearerFormat'] as string | undefined,
    flows: record['flows'] as Json | undefined,
    openIdConnectUrl: record['openIdConnectUrl'] as string | undefined,
  }),
};

export function securitySchemeFields(name: string, s: JsonObject, serviceId: string): Fields {
  return {
    serviceId,
    name,
    type: s['type'] === 'mutualTLS' ? 'mutualTls' : s['type'],
    in: s['type'] === 'apiKey' ? s['in'] : undefined,
    description: str(s['description']),
    scheme: str(s['scheme']),
    bearerFormat: str(s['bearerFormat']),
    flows: isObject(s['flows']) ? s['flows'] : undefined,
    openIdConnectUrl: str(s['openIdConnectUrl']),
  };
}
