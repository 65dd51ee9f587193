// Each rule of what a change does to clients (server/changes/rules.ts) with the smallest
// before/after pair that shows it: the rule id, its level and the operation it is reported under.
import { expect } from 'chai';
import { compareDocuments, type ServiceChange } from '../../server/changes/compare.ts';
import { pets, petsWith, type Doc } from '../features/changes/pets.ts';

type Seen = [level: string, rule: string, where: string];

function seen(before: Doc, after: Doc): Seen[] {
  return compareDocuments(before, after).map((change: ServiceChange) => [
    change.level, change.rule, change.operation ? `${change.operation.method} ${change.operation.path}` : '-',
  ]);
}

const B = 'breaking';
const N = 'non-breaking';
const pet = (doc: Doc) => doc['components'].schemas.Pet;
const listPets = (doc: Doc) => doc['paths']['/pets'].get;
const addPet = (doc: Doc) => doc['paths']['/pets'].post;
const getPet = (doc: Doc) => doc['paths']['/pets/{petId}'].get;

describe('changes: one rule per kind of change', () => {
  it('reports nothing between a document and itself', () => {
    expect(seen(pets(), pets())).to.deep.equal([]);
  });

  const cases: [string, (doc: Doc) => void, Seen[]][] = [
    ['an operation removed', (doc) => delete doc['paths']['/pets'].post, [[B, 'operation-removed', 'POST /pets']]],
    ['a path removed (each of its operations)', (doc) => delete doc['paths']['/pets'], [[B, 'operation-removed', 'GET /pets'], [B, 'operation-removed', 'POST /pets']]],
    ['an operation added', (doc) => (doc['paths']['/pets'].delete = { responses: { 204: { description: 'Gone' } } }), [[N, 'operation-added', 'DELETE /pets']]],
    ['a new required parameter', (doc) => listPets(doc).parameters.push({ name: 'owner', in: 'query', required: true, schema: { type: 'string' } }),
      [[B, 'new-required-request-parameter', 'GET /pets']]],
    ['a new optional parameter', (doc) => listPets(doc).parameters.push({ name: 'owner', in: 'query', schema: { type: 'string' } }),
      [[N, 'new-optional-request-parameter', 'GET /pets']]],
    ['a parameter list added whole', (doc) => (addPet(doc).parameters = [{ name: 'dry', in: 'query', required: true, schema: { type: 'boolean' } }, { name: 'trace', in: 'header', schema: { type: 'string' } }]),
      [[B, 'new-required-request-parameter', 'POST /pets'], [N, 'new-optional-request-parameter', 'POST /pets']]],
    ['a parameter list removed whole', (doc) => delete listPets(doc).parameters,
      [[B, 'request-parameter-removed', 'GET /pets'], [B, 'request-parameter-removed', 'GET /pets']]],
    ['a required path-level parameter added (each operation of the path)', (doc) => (doc['paths']['/pets'].parameters = [{ name: 'tenant', in: 'header', required: true, schema: { type: 'string' } }]),
      [[B, 'new-required-request-parameter', 'GET /pets'], [B, 'new-required-request-parameter', 'POST /pets']]],
    ['a parameter made required', (doc) => (listPets(doc).parameters[0].required = true), [[B, 'request-parameter-became-required', 'GET /pets']]],
    ['a parameter removed', (doc) => listPets(doc).parameters.splice(1, 1), [[B, 'request-parameter-removed', 'GET /pets']]],
    ["a parameter's type changed", (doc) => (listPets(doc).parameters[0].schema = { type: 'string', format: 'int32' }), [[B, 'request-parameter-type-changed', 'GET /pets']]],
    ["a parameter's format changed", (doc) => (listPets(doc).parameters[0].schema.format = 'int64'), [[B, 'request-parameter-format-changed', 'GET /pets']]],
    ['an enum value removed from a parameter', (doc) => (listPets(doc).parameters[1].schema.enum = ['cat']), [[B, 'request-parameter-enum-value-removed', 'GET /pets']]],
    ['an enum value added to a parameter', (doc) => listPets(doc).parameters[1].schema.enum.push('bird'), [[N, 'request-parameter-enum-value-added', 'GET /pets']]],
    ['the request body made required', (doc) => (addPet(doc).requestBody.required = true), [[B, 'request-body-became-required', 'POST /pets']]],
    ['a request media type removed', (doc) => {
      addPet(doc).requestBody.content = { 'application/xml': addPet(doc).requestBody.content['application/json'] };
    }, [[N, 'request-media-type-added', 'POST /pets'], [B, 'request-media-type-removed', 'POST /pets']]],
    // A shared schema's change shows under every operation that sends or returns a Pet.
    ["a property's type changed in a shared schema", (doc) => (pet(doc).properties.tag = { type: 'integer' }), [
      [B, 'response-property-type-changed', 'GET /pets'],
      [B, 'request-property-type-changed', 'POST /pets'],
      [B, 'response-property-type-changed', 'POST /pets'],
      [B, 'response-property-type-changed', 'GET /pets/{petId}'],
    ]],
    ["a property's format changed", (doc) => (pet(doc).properties.id.format = 'int32'), [
      [B, 'response-property-format-changed', 'GET /pets'],
      [B, 'request-property-format-changed', 'POST /pets'],
      [B, 'response-property-format-changed', 'POST /pets'],
      [B, 'response-property-format-changed', 'GET /pets/{petId}'],
    ]],
    // A type or format that accepts fewer values may appear in a response, more in a request.
    ['null added to a type (wider: breaks responses only)', (doc) => (pet(doc).properties.tag = { type: ['string', 'null'] }), [
      [B, 'response-property-type-changed', 'GET /pets'],
      [N, 'request-property-type-widened', 'POST /pets'],
      [B, 'response-property-type-changed', 'POST /pets'],
      [B, 'response-property-type-changed', 'GET /pets/{petId}'],
    ]],
    ['a format added (narrower)', (doc) => (pet(doc).properties.tag.format = 'uuid'), [
      [N, 'response-property-format-narrowed', 'GET /pets'],
      [B, 'request-property-format-changed', 'POST /pets'],
      [N, 'response-property-format-narrowed', 'POST /pets'],
      [N, 'response-property-format-narrowed', 'GET /pets/{petId}'],
    ]],
    ['a request property made required', (doc) => pet(doc).required.push('tag'), [
      [N, 'response-property-became-required', 'GET /pets'],
      [B, 'request-property-became-required', 'POST /pets'],
      [N, 'response-property-became-required', 'POST /pets'],
      [N, 'response-property-became-required', 'GET /pets/{petId}'],
    ]],
    // The same change under two media types of one response is reported once.
    ['a response property removed', (doc) => delete pet(doc).properties.tag, [
      [B, 'response-property-removed', 'GET /pets'],
      [N, 'request-property-removed', 'POST /pets'],
      [B, 'response-property-removed', 'POST /pets'],
      [B, 'response-property-removed', 'GET /pets/{petId}'],
    ]],
    ['a success status removed', (doc) => {
      getPet(doc).responses = { 202: getPet(doc).responses[200] };
    }, [[B, 'response-success-status-removed', 'GET /pets/{petId}'], [N, 'response-status-added', 'GET /pets/{petId}']]],
    ['a success response body removed', (doc) => delete getPet(doc).responses[200].content, [[B, 'response-media-type-removed', 'GET /pets/{petId}']]],
    ['an error status removed', (doc) => delete addPet(doc).responses[400], [[N, 'response-non-success-status-removed', 'POST /pets']]],
    ['a response media type removed', (doc) => delete getPet(doc).responses[200].content['application/xml'], [[B, 'response-media-type-removed', 'GET /pets/{petId}']]],
    ['an enum value added to a response (and to the request)', (doc) => pet(doc).properties.status.enum.push('lost'), [
      [B, 'response-property-enum-value-added', 'GET /pets'],
      [N, 'request-property-enum-value-added', 'POST /pets'],
      [B, 'response-property-enum-value-added', 'POST /pets'],
      [B, 'response-property-enum-value-added', 'GET /pets/{petId}'],
    ]],
    ['an enum value removed from a request (and from the response)', (doc) => (pet(doc).properties.status.enum = ['available']), [
      [N, 'response-property-enum-value-removed', 'GET /pets'],
      [B, 'request-property-enum-value-removed', 'POST /pets'],
      [N, 'response-property-enum-value-removed', 'POST /pets'],
      [N, 'response-property-enum-value-removed', 'GET /pets/{petId}'],
    ]],
    ['a security requirement added to an operation', (doc) => (addPet(doc).security = [{ oauth: [] }]), [[B, 'security-requirement-added', 'POST /pets']]],
    ['the document-wide security requirement changed', (doc) => (doc['security'] = [{ oauth: [] }]), [[B, 'security-requirement-changed', '-'], [B, 'security-requirement-changed', '-']]],
    ['a server removed', (doc) => doc['servers'].pop(), [[B, 'server-removed', '-']]],
    ['a server added', (doc) => doc['servers'].push({ url: 'https://us.pets.example/v1' }), [[N, 'server-added', '-']]],
    ['a response property added', (doc) => (pet(doc).properties.age = { type: 'integer' }), [
      [N, 'response-property-added', 'GET /pets'],
      [N, 'new-optional-request-property', 'POST /pets'],
      [N, 'response-property-added', 'POST /pets'],
      [N, 'response-property-added', 'GET /pets/{petId}'],
    ]],
    ['a description edited (nothing for clients)', (doc) => (listPets(doc).description = 'All the pets.'), []],
  ];

  for (const [name, edit, expected] of cases) {
    it(name, () => {
      expect(seen(pets(), petsWith(edit))).to.have.deep.members(expected);
      expect(seen(pets(), petsWith(edit))).to.have.length(expected.length);
    });
  }

  describe('a parameter declared on the path and on its operations (the operation\'s overrides, by name and in)', () => {
    const tenant = (required: boolean) => ({ name: 'tenant', in: 'header', required, schema: { type: 'string' } });
    // Asana and Zoom repeat each path parameter on every operation of the path.
    const repeated = () => petsWith((doc) => {
      doc['paths']['/pets/{petId}'].parameters = [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }];
      doc['paths']['/pets'].parameters = [tenant(false)];
      listPets(doc).parameters.push(tenant(true));
    });

    it('is one parameter: a document repeating it reports nothing against itself', () => {
      expect(seen(repeated(), repeated())).to.deep.equal([]);
    });

    it('moved from the path to each operation (or back) changes nothing for clients', () => {
      const moved = petsWith((doc) => {
        doc['paths']['/pets'].parameters = [tenant(false)];
        listPets(doc).parameters.push(tenant(true));
        addPet(doc).parameters = [tenant(false)];
        delete doc['paths']['/pets'].parameters;
      });
      expect(seen(repeated(), moved)).to.deep.equal([]);
      expect(seen(moved, repeated())).to.deep.equal([]);
    });

    it('an override dropped: the operation meets the path\'s parameter, the other operations nothing', () => {
      const dropped = petsWith((doc) => {
        doc['paths']['/pets/{petId}'].parameters = [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }];
        doc['paths']['/pets'].parameters = [tenant(false)];
      });
      expect(seen(repeated(), dropped)).to.deep.equal([[N, 'request-parameter-became-optional', 'GET /pets']]);
    });

    it('leaves the documents it is given as they were (the library moves path parameters in place)', () => {
      const [before, after] = [repeated(), repeated()];
      compareDocuments(before, after);
      expect([before, after]).to.deep.equal([repeated(), repeated()]);
    });
  });

  it('a path\'s servers that its operations override are none of their servers', () => {
    const overridden = (pathServers: { url: string }[]) => petsWith((doc) => {
      doc['paths']['/pets/{petId}'].servers = pathServers;
      getPet(doc).servers = [{ url: 'https://pets.example/v2' }];
    });
    expect(seen(overridden([{ url: 'https://old.pets.example/v1' }]), overridden([]))).to.deep.equal([]);
    const moved = petsWith((doc) => (getPet(doc).servers = [{ url: 'https://pets.example/v2' }]));
    expect(seen(petsWith((doc) => (doc['paths']['/pets/{petId}'].servers = [{ url: 'https://pets.example/v2' }])), moved)).to.deep.equal([]);
  });

  describe('two paths of one template (Google: /v1beta1/{name} beside /v1beta1/{groupName})', () => {
    const kind = { get: { operationId: 'listKind', parameters: [{ name: 'kind', in: 'path', required: true, schema: { type: 'string' } }], responses: { 200: { description: 'Pets of a kind' } } } };
    const twinsWith = (edit: (doc: Doc) => void) => petsWith((doc) => {
      doc['paths']['/pets/{kind}'] = structuredClone(kind);
      edit(doc);
    });
    const twins = () => twinsWith(() => {});

    it('each path is itself: nothing against itself', () => {
      expect(seen(twins(), twins())).to.deep.equal([]);
    });

    it('one of them removed: that one path\'s operation, and nothing else', () => {
      expect(seen(twins(), twinsWith((doc) => delete doc['paths']['/pets/{petId}']))).to.deep.equal([[B, 'operation-removed', 'GET /pets/{petId}']]);
      expect(seen(twins(), pets())).to.deep.equal([[B, 'operation-removed', 'GET /pets/{kind}']]);
    });

    it('a path parameter renamed is the same path', () => {
      const renamed = petsWith((doc) => {
        getPet(doc).parameters[0].name = 'id';
        doc['paths']['/pets/{id}'] = doc['paths']['/pets/{petId}'];
        delete doc['paths']['/pets/{petId}'];
      });
      expect(seen(pets(), renamed).filter(([, rule]) => rule.startsWith('operation-'))).to.deep.equal([]);
    });
  });

  describe('two media types a wildcard pairs (osf.io answers */* beside application/json)', () => {
    const anyToo = () => petsWith((doc) => (getPet(doc).responses[200].content['*/*'] = { schema: { type: 'string' } }));

    it('each media type is itself: nothing against itself', () => {
      expect(seen(anyToo(), anyToo())).to.deep.equal([]);
    });

    it('one of them removed: that one', () => {
      expect(seen(anyToo(), pets())).to.deep.equal([[B, 'response-media-type-removed', 'GET /pets/{petId}']]);
    });
  });

  it('null taken from a type (narrower: breaks requests only)', () => {
    const nullable = petsWith((doc) => (pet(doc).properties.tag = { type: ['string', 'null'] }));
    expect(seen(nullable, pets())).to.have.deep.members([
      [N, 'response-property-type-narrowed', 'GET /pets'],
      [B, 'request-property-type-changed', 'POST /pets'],
      [N, 'response-property-type-narrowed', 'POST /pets'],
      [N, 'response-property-type-narrowed', 'GET /pets/{petId}'],
    ]);
  });

  it('says each change in one sentence, naming the parameter or property', () => {
    const [change] = compareDocuments(pets(), petsWith((doc) => (listPets(doc).parameters[0].required = true)));
    expect(change).to.deep.equal({
      level: B, rule: 'request-parameter-became-required', operation: { method: 'GET', path: '/pets', operationId: 'listPets' },
      message: 'The query parameter `limit` became required.',
    });
    const [removed] = compareDocuments(pets(), petsWith((doc) => delete doc['paths']['/pets'].post));
    expect(removed!.message).to.equal('POST /pets was removed.');
    const [typed] = compareDocuments(pets(), petsWith((doc) => (pet(doc).properties.tag = { type: 'integer' })));
    expect(typed!.message).to.equal('The type of the response property `[].tag` changed from string to integer.');
  });
});
