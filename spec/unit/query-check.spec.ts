// The query-string check the pipeline compiles once per endpoint (server/http/query.ts).
import { expect } from 'chai';
import { InvalidRequest } from '../../server/errors.ts';
import { compileQueryCheck } from '../../server/http/query.ts';

function refusal(run: () => void): unknown {
  try {
    run();
  } catch (error) {
    expect(error).to.be.instanceOf(InvalidRequest);
    return (error as InvalidRequest).details;
  }
  throw new Error('expected a refusal');
}

describe('an endpoint query string checked by its compiled schema', () => {
  const check = compileQueryCheck(['service', 'dryRun']);

  it('takes the documented parameters, each once, or none', () => {
    expect(() => check({})).not.to.throw();
    expect(() => check({ service: 'petstore', dryRun: 'true' })).not.to.throw();
  });

  it('refuses a parameter the endpoint does not document, naming it', () => {
    expect(refusal(() => check({ service: 'a', limit: '5' }))).to.deep.equal([{ field: 'limit', message: 'is not a query parameter of this operation' }]);
  });

  it('refuses a parameter given twice (Express makes it an array), naming it', () => {
    expect(refusal(() => check({ dryRun: ['true', 'false'] }))).to.deep.equal([{ field: 'dryRun', message: 'must be given once' }]);
  });

  it('reports an unknown parameter before a repeated one', () => {
    expect(refusal(() => check({ dryRun: ['true', 'false'], other: 'x' }))).to.deep.equal([{ field: 'other', message: 'is not a query parameter of this operation' }]);
  });

  it('takes no parameter at all when none is documented', () => {
    expect(refusal(() => compileQueryCheck([])({ q: 'x' }))).to.deep.equal([{ field: 'q', message: 'is not a query parameter of this operation' }]);
  });
});
