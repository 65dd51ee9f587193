// A pre-3.1 description's `x-webhooks` through the upgrade to OpenAPI 3.1: its webhooks become
// `webhooks`, and what 3.1's `webhooks` cannot hold (an extension, a value that is no Path Item)
// stays in `x-webhooks` instead of making the document invalid.
import { expect } from 'chai';
import { validate } from '@scalar/openapi-parser';
import { prepareDocument } from '../../server/descriptions/document.ts';

const hook = { post: { responses: { '200': { description: 'received' } } } };
const described = (head: Record<string, string>, legacy: Record<string, unknown>): Record<string, unknown> =>
  ({ ...head, info: { title: 'Hooks', version: '1' }, paths: {}, 'x-webhooks': structuredClone(legacy) });

describe('descriptions: x-webhooks through the upgrade to 3.1', () => {
  for (const head of [{ openapi: '3.0.3' }, { swagger: '2.0' }] as Record<string, string>[]) {
    it(`${Object.values(head)[0]}: the webhooks become webhooks, the extension and the value that is no Path Item stay in x-webhooks, and the result is valid 3.1`, async () => {
      const prepared = await prepareDocument(described(head, { created: hook, 'x-sdk-exclude': true, note: 'not a path item' }));
      expect(prepared['webhooks']).to.deep.equal({ created: hook });
      expect(prepared['x-webhooks']).to.deep.equal({ 'x-sdk-exclude': true, note: 'not a path item' });
      const { valid, errors } = await validate(structuredClone(prepared) as never);
      expect(errors).to.deep.equal([]);
      expect(valid).to.equal(true);
    });
  }

  it("a Callback in x-webhooks (Nexmo's shape: an expression naming a Path Item) is no webhook: it stays in x-webhooks", async () => {
    const callback = { '{$request.body#/callback}': hook };
    const prepared = await prepareDocument(described({ openapi: '3.0.0' }, { created: hook, 'inbound-sms': callback }));
    expect(prepared['webhooks']).to.deep.equal({ created: hook });
    expect(prepared['x-webhooks']).to.deep.equal({ 'inbound-sms': callback });
  });

  it('an x-webhooks of extensions only makes no webhooks', async () => {
    const prepared = await prepareDocument(described({ openapi: '3.0.0' }, { 'x-sdk-exclude': true }));
    expect(prepared).not.to.have.property('webhooks');
    expect(prepared['x-webhooks']).to.deep.equal({ 'x-sdk-exclude': true });
  });

  it('an x-webhooks of webhooks only is renamed whole, as the upgrader does', async () => {
    const prepared = await prepareDocument(described({ openapi: '3.0.0' }, { created: hook }));
    expect(prepared['webhooks']).to.deep.equal({ created: hook });
    expect(prepared).not.to.have.property('x-webhooks');
  });

  it("a 3.1 description's x-webhooks is an extension like any other, left as it is", async () => {
    const legacy = { created: hook, 'x-sdk-exclude': true };
    const prepared = await prepareDocument(described({ openapi: '3.1.0' }, legacy));
    expect(prepared['x-webhooks']).to.deep.equal(legacy);
    expect(prepared).not.to.have.property('webhooks');
  });
});
