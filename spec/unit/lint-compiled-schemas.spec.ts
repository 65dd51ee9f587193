// Spectral compiles the schema of each example it checks from a fresh copy; during a lint, copies
// with the same text share one compiled validator (server/lint/compiled-schemas.ts), and the
// validator answers as one compiled on its own would.
import { expect } from 'chai';
import { createRequire } from 'node:module';
import { sharedCompiles } from '../../server/lint/compiled-schemas.ts';

const require = createRequire(import.meta.url);
// The Ajv Spectral's functions load, as the lint's are.
const Ajv = (require(require.resolve('ajv', { paths: [require.resolve('@stoplight/spectral-functions')] })) as { default: new (options: object) => { compile(schema: object): ((data: unknown) => boolean) & { errors?: unknown } } }).default;

const schema = () => ({ type: 'object', required: ['id'], properties: { id: { type: 'integer' } } });

describe('lint: compiled schemas shared by their text', () => {
  it('compiles a schema copied again only once during a lint, to a validator that answers as its own would', async () => {
    const ajv = new Ajv({ strict: false });
    const [first, again, other] = await sharedCompiles(async () => [ajv.compile(schema()), ajv.compile(schema()), ajv.compile({ ...schema(), required: [] })]);
    expect(again).to.equal(first);
    expect(other).to.not.equal(first);
    expect([first!({ id: 1 }), first!({})]).to.deep.equal([true, false]);
    expect((first!.errors as { keyword: string }[]).map((error) => error.keyword)).to.deep.equal(['required']);
    expect(other!({})).to.equal(true);
  });

  it('compiles each copy as Ajv does outside a lint, and keeps nothing after one', async () => {
    const ajv = new Ajv({ strict: false });
    expect(ajv.compile(schema())).to.not.equal(ajv.compile(schema()));
    const during = await sharedCompiles(async () => ajv.compile(schema()));
    expect(await sharedCompiles(async () => ajv.compile(schema()))).to.not.equal(during);
  });
});
