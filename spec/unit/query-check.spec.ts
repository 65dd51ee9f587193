// The query-string check the pipeline compiles once per route (server/pipeline/query.ts): the
// parameters the route documents, each once, each value checked by its documented schema and
// handed to the work typed.
import { expect } from 'chai';
import { InvalidRequest } from '../../server/errors.ts';
import { compileQueryCheck } from '../../server/pipeline/query.ts';
import type { QueryParameter } from '../../server/routes/documentation.ts';
import { loadSchemaRegistry, SCHEMA_BASE } from '../../server/schemas/registry.ts';

function refusal(run: () => void): Array<{ field: string; message: string }> {
  try {
    run();
  } catch (error) {
    expect(error).to.be.instanceOf(InvalidRequest);
    return (error as InvalidRequest).details as Array<{ field: string; message: string }>;
  }
  throw new Error('expected a refusal');
}

describe('a route query string checked by its documented schemas', () => {
  const { coercingAjv } = loadSchemaRegistry();
  const parameters: QueryParameter[] = [
    { name: 'service', description: 'A service.', schema: { $ref: `${SCHEMA_BASE}defs/ids.json#/$defs/serviceSlug` }, invalid: 'must be a service slug' },
    { name: 'dryRun', description: 'Plan only.', schema: { type: 'boolean', default: false } },
    { name: 'limit', description: 'At most.', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 }, invalid: 'must be an integer from 1 to 100' },
  ];
  const check = compileQueryCheck(coercingAjv, parameters);
  const withAgainst = compileQueryCheck(coercingAjv, [{ name: 'against', description: 'The other.', schema: { type: 'string' }, required: true, missing: 'is required: the other version' }]);

  it('hands the work typed values: text coerced to the schema\'s type, defaults filled in', () => {
    expect(check({})).to.deep.equal({ dryRun: false, limit: 20 });
    expect(check({ service: 'petstore', dryRun: 'true', limit: '5' })).to.deep.equal({ service: 'petstore', dryRun: true, limit: 5 });
  });

  it('refuses a value its schema refuses, with the parameter\'s own words or the schema\'s', () => {
    expect(refusal(() => check({ limit: '0' }))).to.deep.equal([{ field: 'limit', message: 'must be an integer from 1 to 100' }]);
    expect(refusal(() => check({ limit: 'ten' }))).to.deep.equal([{ field: 'limit', message: 'must be an integer from 1 to 100' }]);
    expect(refusal(() => check({ service: 'Not A Slug' }))).to.deep.equal([{ field: 'service', message: 'must be a service slug' }]);
    expect(refusal(() => check({ dryRun: 'yes' }))).to.deep.equal([{ field: 'dryRun', message: 'must be boolean' }]);
  });

  it('refuses a missing required parameter, in its own words', () => {
    expect(refusal(() => withAgainst({}))).to.deep.equal([{ field: 'against', message: 'is required: the other version' }]);
    expect(withAgainst({ against: 'branch/main' })).to.deep.equal({ against: 'branch/main' });
  });

  it('refuses a parameter the route does not document, naming it', () => {
    expect(refusal(() => check({ service: 'a', other: '5' }))).to.deep.equal([{ field: 'other', message: 'is not a query parameter of this operation (this operation takes service, dryRun, limit)' }]);
  });

  it('refuses a parameter given twice (Express makes it an array), naming it', () => {
    expect(refusal(() => check({ dryRun: ['true', 'false'] }))).to.deep.equal([{ field: 'dryRun', message: 'must be given once' }]);
  });

  it('reports an unknown parameter before a repeated one', () => {
    expect(refusal(() => check({ dryRun: ['true', 'false'], other: 'x' }))[0]).to.have.property('field', 'other');
  });

  it('takes no parameter at all when none is documented', () => {
    expect(refusal(() => compileQueryCheck(coercingAjv, [])({ q: 'x' }))).to.deep.equal([{ field: 'q', message: 'is not a query parameter of this operation (this operation takes no query parameters)' }]);
  });

  it('takes a number written as plain decimals only, though Ajv\'s coercion alone would take more', () => {
    for (const limit of ['1e2', ' 5', '+5', '0x10', 'Infinity', '']) {
      expect(refusal(() => check({ limit }))).to.deep.equal([{ field: 'limit', message: 'must be an integer from 1 to 100' }]);
    }
  });

  describe('a parameter whose schema is an array', () => {
    const keys = compileQueryCheck(coercingAjv, [{ name: 'sort', description: 'Keys.', schema: { type: 'array', items: { type: 'string', pattern: '^-?[a-z]+$' } } }]);

    it('takes it once or repeated, as a list of texts', () => {
      expect(keys({ sort: 'a' })).to.deep.equal({ sort: ['a'] });
      expect(keys({ sort: ['a', '-b'] })).to.deep.equal({ sort: ['a', '-b'] });
    });

    it('refuses an item its schema refuses, and anything but text (`sort[x]=`)', () => {
      expect(refusal(() => keys({ sort: ['a', 'B'] }))[0]).to.have.property('field', 'sort');
      expect(refusal(() => keys({ sort: { x: 'a' } }))[0]).to.have.property('field', 'sort');
    });
  });

  describe('a parameter that types its own text', () => {
    const nullable = compileQueryCheck(coercingAjv, [{
      name: 'media', description: 'A media type or null.', schema: { type: ['string', 'null'] },
      fromText: (text) => (text === 'bad' ? { problem: 'is bad' } : { value: text === 'null' ? null : text }),
    }]);

    it('hands the work the value its rule made, checked by the schema', () => {
      expect(nullable({ media: 'null' })).to.deep.equal({ media: null });
      expect(nullable({ media: 'text/plain' })).to.deep.equal({ media: 'text/plain' });
    });

    it('refuses with the rule\'s words', () => {
      expect(refusal(() => nullable({ media: 'bad' }))).to.deep.equal([{ field: 'media', message: 'is bad' }]);
    });
  });
});
