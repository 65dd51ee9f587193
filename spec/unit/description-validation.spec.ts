// A large incoming description is validated on a thread of its own (server/descriptions/validation.ts)
// while the request's thread upgrades it: the findings are the validator's own, on the document
// as it was given, whatever the upgrade does to it meanwhile.
import { expect } from 'chai';
import { validate } from '@scalar/openapi-parser';
import { validateAside } from '../../server/descriptions/validation.ts';
import { readDescription } from '../support/directory.ts';

type Json = Record<string, any>;
const giphy = (): Json => readDescription('giphy.com.json');

describe('descriptions: validation on a thread of its own', function () {
  this.timeout(60_000);

  it('finds what the validator finds on this thread, for a real description and for broken ones', async () => {
    const broken = giphy();
    delete broken['info'];
    broken['paths']['/gifs/search'].get.responses = 'none';
    for (const document of [giphy(), broken, { openapi: '3.1.0' }, { swagger: '2.0', info: { title: 't', version: '1' }, paths: { '/a': { get: { responses: {} } } } }]) {
      const here = await validate(structuredClone(document) as never);
      // On the thread (from 0 bytes), and here (a description this small is by default).
      for (const there of [await validateAside(document, { offThreadFrom: 0 }), await validateAside(document)]) {
        expect(there.valid).to.equal(here.valid);
        expect(there.errors.map(({ message }) => message)).to.deep.equal((here.errors ?? []).map(({ message }) => message));
      }
    }
  });

  it('judges the document as it was when asked, not as it is changed after', async () => {
    const document = giphy();
    const judged = validateAside(document, { offThreadFrom: 0 });
    delete document['paths'];
    document['openapi'] = 'not a version';
    expect((await judged).valid).to.equal(true);
  });
});
