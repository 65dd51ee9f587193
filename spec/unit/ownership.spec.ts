// Which records belong to a service, read from collections.json (references and `owner`), the
// order an import writes them in, and the one key function the store and the import share.
import { expect } from 'chai';
import { KINDS } from '../../server/descriptions/kinds.ts';
import { prepareDocument } from '../../server/descriptions/document.ts';
import { mapDocument, type Placement } from '../../server/descriptions/map.ts';
import { RENDER } from '../../server/descriptions/render.ts';
import { petstore } from '../features/descriptions/petstore.ts';
import { recordsOfService, serviceKinds } from '../../server/ownership/service-records.ts';
import { keyOf } from '../../server/schemas/record-keys.ts';
import { loadSchemaRegistry, type CompiledCollection } from '../../server/schemas/registry.ts';
import type { CatalogRecord } from '../../server/store/records.ts';

describe('unit: the records of a service', () => {
  const { collections } = loadSchemaRegistry();
  const kinds = serviceKinds(collections);
  const names = kinds.map(({ name }) => name);

  it('are of every kind that refers to a service or names one as its owner, parents first', () => {
    expect(names[0]).to.equal('services');
    expect([...names].sort()).to.deep.equal(collections.map(({ name }) => name).sort());
    for (const kind of kinds) {
      for (const target of kind.references.values()) expect(names.indexOf(target), `${kind.name} → ${target}`).to.be.lessThan(names.indexOf(kind.name));
    }
  });

  it('are all rendered by the OpenAPI export, so an import never deletes a kind it cannot describe', () => {
    expect(Object.keys(RENDER).sort()).to.deep.equal([...names].sort());
    expect(Object.keys(KINDS).sort()).to.deep.equal([...names].sort());
  });

  it('are made by the import from only the fields the mapping table names (the others travel under x-catalog-fields)', async () => {
    const placed: Placement[] = [];
    let next = 0;
    mapDocument(await prepareDocument(petstore()), { slug: 'pets', organizationId: 'prj_1' }, (placement) => { placed.push(placement); return `id_${next++}`; });
    expect(new Set(placed.map(({ collection }) => collection))).to.have.property('size', names.length);
    for (const { collection, fields } of placed) {
      expect(Object.keys(fields).filter((field) => !KINDS[collection]!.fields.includes(field)), collection).to.deep.equal([]);
    }
  });

  it('refuses references that go round in a circle', () => {
    const kind = (name: string, references: Record<string, string>): CompiledCollection => ({ name, references: new Map(Object.entries(references)) }) as unknown as CompiledCollection;
    expect(() => serviceKinds([kind('services', {}), kind('a', { serviceId: 'services', bId: 'b' }), kind('b', { aId: 'a' })])).to.throw(/a, b go round in a circle/);
  });

  it('are found through references, down the chain, and through the owner field; never another service\'s', () => {
    const record = (id: string, fields: Record<string, unknown> = {}): CatalogRecord => ({ id, versionId: 'ver_1', ...fields });
    const all = new Map<string, CatalogRecord[]>([
      ['services', [record('svc_a'), record('svc_b')]],
      ['paths', [record('path_a', { serviceId: 'svc_a' }), record('path_b', { serviceId: 'svc_b' })]],
      ['operations', [record('op_a', { pathId: 'path_a' }), record('op_b', { pathId: 'path_b' })]],
      ['parameters', [record('par_path', { pathId: 'path_a' }), record('par_op', { operationId: 'op_a' }), record('par_b', { operationId: 'op_b' })]],
      ['servers', [record('srv_top', { serviceId: 'svc_a' }), record('srv_op', { operationId: 'op_a' }), record('srv_wide')]],
      ['security-schemes', [record('sec_a', { serviceId: 'svc_a' }), record('sec_wide')]],
      ['resources', [record('rsc_a', { kvStorage: { 'x-catalog': { service: 'svc_a', order: 0 } } }), record('rsc_b', { kvStorage: { 'x-catalog': { service: 'svc_b', order: 0 } } }), record('rsc_none')]],
    ]);
    const owned = recordsOfService(kinds, 'svc_a', all);
    const ids = (name: string): string[] => (owned.get(name) ?? []).map(({ id }) => id);
    expect(ids('services')).to.deep.equal(['svc_a']);
    expect(ids('paths')).to.deep.equal(['path_a']);
    expect(ids('operations')).to.deep.equal(['op_a']);
    expect(ids('parameters')).to.deep.equal(['par_path', 'par_op']);
    expect(ids('servers')).to.deep.equal(['srv_top', 'srv_op']);
    expect(ids('security-schemes')).to.deep.equal(['sec_a']);
    expect(ids('resources')).to.deep.equal(['rsc_a']);
    expect(ids('headers')).to.deep.equal([]);
  });
});

describe('unit: the key of a record under declared fields', () => {
  it('is the values as a JSON array, a missing one null, dotted fields reaching into objects', () => {
    const record = { name: 'Pet', kvStorage: { 'x-catalog': { service: 'svc_a' } } };
    expect(keyOf(['kvStorage.x-catalog.service', 'name'], record)).to.equal('["svc_a","Pet"]');
    expect(keyOf(['serviceId', 'name'], record)).to.equal('[null,"Pet"]');
    expect(keyOf(['kvStorage.x-catalog.order'], { kvStorage: 'not an object' })).to.equal('[null]');
  });

  it('is what every collection an import writes declares to match by', () => {
    for (const kind of serviceKinds(loadSchemaRegistry().collections)) expect(kind.importKey, kind.name).to.not.be.empty;
  });
});
