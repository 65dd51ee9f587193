// Spectral compiles the schema of each example it checks from a fresh copy; during a lint, copies
// with the same text share one compiled validator (server/lint/compiled-schemas.ts), and the
// validator answers as one compiled on its own would. Compiled during a lint, a validator skips
// Ajv's code optimization, and gives the errors an optimized one gives.
import { expect } from 'chai';
import addFormats from 'ajv-formats';
import { createRequire } from 'node:module';
import { sharedCompiles } from '../../server/lint/compiled-schemas.ts';

const require = createRequire(import.meta.url);
// The Ajv Spectral's functions load, as the lint's are.
type Validator = ((data: unknown) => boolean) & { errors?: unknown; source?: { validateCode: string } };
const Ajv = (require(require.resolve('ajv', { paths: [require.resolve('@stoplight/spectral-functions')] })) as { default: new (options: object) => { compile(schema: object): Validator; opts: { code: { optimize: number } } } }).default;

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

  describe('without Ajv\'s code optimization during a lint', () => {
    // As an OpenAPI example's schema may be: combinators, nesting, formats, patterns, limits.
    const example = () => ({
      type: 'object', required: ['id', 'owner', 'tags'], additionalProperties: false,
      properties: {
        id: { type: 'integer', minimum: 1 },
        owner: { oneOf: [{ type: 'object', required: ['login'], properties: { login: { type: 'string', pattern: '^[a-z]+$' } } }, { type: 'null' }] },
        tags: { type: 'array', maxItems: 2, items: { anyOf: [{ type: 'string', format: 'email' }, { type: 'string', format: 'uri' }] } },
        created: { allOf: [{ type: 'string', format: 'date-time' }, { minLength: 20 }] },
        state: { type: 'string', enum: ['open', 'closed'] },
      },
    });
    const wrong = [
      {}, { id: 0, owner: { login: 'A1' }, tags: ['x', 'y', 'z'], created: 'yesterday', state: 'gone', extra: true },
      { id: 'one', owner: 7, tags: [1] }, { id: 2, owner: null, tags: ['a@b.io'], created: '2024-01-01T00:00:00Z' },
    ];
    // With the formats, as Spectral's instances have them.
    const withFormats = (options: object) => {
      const ajv = new Ajv(options);
      addFormats.default(ajv as unknown as Parameters<typeof addFormats.default>[0]);
      return ajv;
    };
    const errorsOf = (validate: Validator) => wrong.map((data) => (validate(data), validate.errors));

    it('compiles the code Ajv makes with optimize 0, and leaves the instance\'s option as it was', async () => {
      const ajv = withFormats({ strict: false, allErrors: true, code: { source: true } });
      const during = await sharedCompiles(async () => ajv.compile(example()));
      expect(ajv.opts.code.optimize).to.equal(1);
      const unoptimized = withFormats({ strict: false, allErrors: true, code: { source: true, optimize: 0 } }).compile(example());
      expect(during.source!.validateCode).to.equal(unoptimized.source!.validateCode);
      expect(during.source!.validateCode).to.not.equal(ajv.compile(example()).source!.validateCode);
    });

    it('gives the errors an optimized validator gives', async () => {
      for (const allErrors of [false, true]) {
        const ajv = withFormats({ strict: false, allErrors });
        const during = await sharedCompiles(async () => ajv.compile(example()));
        expect(errorsOf(during)).to.deep.equal(errorsOf(ajv.compile(example())));
      }
    });
  });
});
