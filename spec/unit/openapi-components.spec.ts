// schemas/ → components.schemas: names, `$ref` rewriting, and the words that look like keywords
// but are not (a property called `$ref` or `examples`, data under `default`).
import { expect } from 'chai';
import { schemaComponents } from '../../server/openapi/components.ts';
import { openApiPath } from '../../server/openapi/document.ts';
import { loadSchemaRegistry } from '../../server/schemas/registry.ts';

const BASE = 'https://catalog.example/schemas/';

describe('OpenAPI components from schemas/', () => {
  const components = schemaComponents(loadSchemaRegistry());
  const schema = (name: string) => components.schemas[name] as Record<string, Record<string, Record<string, unknown>>>;

  it('names record and api schemas by title, and lifts each def of defs/ to its own component', () => {
    expect(components.schemas).to.include.keys('Path', 'Request', 'SecurityScheme', 'AssistantConversation', 'Error', 'PaginationMetadata');
    expect(components.schemas).to.include.keys('pathId', 'versionType', 'timestamp', 'kvStorage', 'headerReference');
    expect(components.schemas).to.not.have.key('CollectionDescriptors');
    expect(JSON.stringify(components.schemas)).to.not.match(/"\$id"|"\$schema"|catalog\.example/);
  });

  it('rewrites references by $id, with fragments, from any file', () => {
    expect(components.refOf(`${BASE}records/path.json`)).to.equal('#/components/schemas/Path');
    expect(components.refOf(`${BASE}records/path.json#/properties/id`)).to.equal('#/components/schemas/Path/properties/id');
    expect(components.refOf(`${BASE}defs/ids.json#/$defs/pathId`)).to.equal('#/components/schemas/pathId');
    expect(schema('Path')['properties']!['serviceId']!['$ref']).to.equal('#/components/schemas/serviceId');
    expect(components.rewrite({ items: { $ref: `${BASE}api/error.json` } })).to.deep.equal({ items: { $ref: '#/components/schemas/Error' } });
    expect(() => components.refOf(`${BASE}records/nothing.json`)).to.throw(/names no schema/);
  });

  it('treats property names as names: a property `$ref` stays a schema, a property `examples` is rewritten', () => {
    expect(schema('headerReference')['properties']!['$ref']).to.include({ type: 'string' });
    expect(schema('Request')['properties']!['examples']!['$ref']).to.equal('#/components/schemas/examples');
  });

  it('leaves data alone: a default or const that holds a `$ref` key is not a reference', () => {
    const data = { $ref: '../defs/ids.json#/$defs/pathId' };
    expect(components.rewrite({ default: data, const: data }, `${BASE}records/path.json`)).to.deep.equal({ default: data, const: data });
  });

  it('turns Express parameters into OpenAPI templates', () => {
    expect(openApiPath('/v2/catalog/projects/:projectRef/:versionType/:versionSlug/paths/:id'))
      .to.equal('/v2/catalog/projects/{projectRef}/{versionType}/{versionSlug}/paths/{id}');
  });
});
