// A schema as the operation page shows it: nested <details> from the rows the twin lists, each
// property under its object, array items under their array, named schemas linked, not expanded.
import { expect } from 'chai';
import { SCHEMA_DEPTH_SHOWN, schemaRows, schemaTree, type SchemaNode } from '../../server/pages/operation-view.ts';

const outline = (nodes: SchemaNode[]): unknown[] => nodes.map((node) => (node.children.length ? { [node.name]: outline(node.children) } : node.name));

describe('schema trees', () => {
  it('nest each property under its object and array items under their array, siblings after a deep branch back at their level', () => {
    const schema = {
      type: 'object', required: ['owner'],
      properties: {
        owner: { type: 'object', properties: { name: { type: 'string' }, address: { type: 'object', properties: { city: { type: 'string' } } } } },
        tags: { type: 'array', items: { type: 'object', properties: { label: { type: 'string' } } } },
        next: { $ref: '#/components/schemas/Page' },
      },
    };
    const tree = schemaTree(schemaRows(schema));
    expect(outline(tree)).to.deep.equal([{ owner: ['name', { address: ['city'] }] }, { tags: [{ '[items]': ['label'] }] }, 'next']);
    expect(tree[0]!.required).to.equal(true);
    expect(tree[2]).to.include({ ref: 'Page', type: 'Page' });
  });

  it('keeps a body that is only a named schema or a scalar as one node', () => {
    expect(schemaTree(schemaRows({ $ref: '#/components/schemas/Item' }))).to.deep.equal([{ depth: 0, name: '', type: 'Item', required: false, description: '', ref: 'Item', children: [] }]);
    expect(outline(schemaTree(schemaRows({ type: 'string' })))).to.deep.equal(['']);
  });

  it('cuts an inline schema below five levels where it goes deeper, saying how many members are cut', () => {
    const level = (depth: number): Record<string, unknown> => (depth === 0 ? { type: 'string' } : { type: 'object', properties: { a: level(depth - 1), b: { type: 'integer' } } });
    const rows = schemaRows(level(7));
    expect(Math.max(...rows.map((row) => row.depth))).to.equal(SCHEMA_DEPTH_SHOWN);
    const cut = rows.filter((row) => row.cut !== undefined);
    expect(cut.map(({ depth, name, cut: members }) => ({ depth, name, members }))).to.deep.equal([{ depth: SCHEMA_DEPTH_SHOWN, name: 'a', members: 2 }]);
    expect(schemaRows(level(SCHEMA_DEPTH_SHOWN)).some((row) => row.cut !== undefined), 'a schema that ends in time is not cut').to.equal(false);
  });
});
