// The request samples' hard cases, each read back into the call it makes (spec/support/sample-calls.ts):
// a body whose strings hold a newline, a backslash, a quote and a `$` (Python's literal, curl's
// here-document), an example in braces, a path's fragment, a multipart body with a file, a
// form-urlencoded one, a required property the schema does not describe, and the credential in
// a cookie.
import { expect } from 'chai';
import { samplesOf, type SampleInput } from '../../server/pages/samples.ts';
import { curlCall, fetchCall, pythonCalls, type Call } from '../support/sample-calls.ts';

const BASE: SampleInput = { method: 'post', base: 'https://api.example.com/v1', path: '/things', parameters: [], schemes: [], requests: [], schemas: {} };

/** The calls the three samples make, in the order curl, fetch, Python. */
async function callsOf(input: SampleInput): Promise<Call[]> {
  const [curl, fetch, python] = samplesOf(input).map((sample) => sample.code);
  const [fromPython] = pythonCalls([python!]);
  if (!fromPython || 'error' in fromPython) throw new Error(`python: ${JSON.stringify(fromPython)}`);
  return [curlCall(curl!), await fetchCall(fetch!), fromPython];
}

describe('request samples', function () {
  this.timeout(60_000);

  it("send a JSON body with newlines, backslashes, quotes and `$` as it is, in each language", async () => {
    const body = { text: "it's a \"test\"\nline two \\ $HOME `date` ${x}", n: 1.5, none: null, yes: true, list: [], nested: { deep: ['a\\b'] } };
    const calls = await callsOf({ ...BASE, requests: [{ contentMediaType: 'application/vnd.api+json', examples: { one: { value: body } } }] });
    for (const call of calls) {
      expect(JSON.parse(call.body!)).to.deep.equal(body);
      expect(call.headers['content-type']).to.equal('application/vnd.api+json');
    }
  });

  it('fill path parameters with their example, else a placeholder, never a brace; leave out a fragment', async () => {
    const calls = await callsOf({
      ...BASE, method: 'get', path: '/pages/{page_id}/blocks/{block_id}#children',
      parameters: [
        { name: 'page_id', in: 'path', required: true, examples: { postman: { value: '{{PAGE_ID}}' } } },
        { name: 'block_id', in: 'path', required: true, schema: { type: 'string', example: 'b 1/2' } },
        { name: 'limit', in: 'query', required: true, schema: { type: 'integer', default: 20 } },
        { name: 'X-Tenant', in: 'header', required: true, schema: { type: 'string', enum: ['eu', 'us'] } },
        { name: 'optional', in: 'query', required: false, schema: { type: 'string' } },
      ],
    });
    for (const call of calls) {
      expect(call.method).to.equal('GET');
      expect(call.url).to.equal('https://api.example.com/v1/pages/YOUR_PAGE_ID/blocks/b%201%2F2?limit=20');
      expect(call.headers['x-tenant']).to.equal('eu');
    }
  });

  it('send multipart with a file part for each binary field, and forms as fields', async () => {
    const upload = {
      contentMediaType: 'multipart/form-data',
      schema: { type: 'object', required: ['file', 'purpose'], properties: { file: { type: 'string', format: 'binary' }, purpose: { type: 'string', example: 'fine-tune' } } },
    };
    for (const call of await callsOf({ ...BASE, requests: [upload] })) {
      expect(call.form?.sort()).to.deep.equal([['file', 'file:file.bin'], ['purpose', 'fine-tune']]);
      expect(call.headers['content-type'] ?? 'multipart/form-data').to.match(/^multipart\/form-data/);
    }
    const form = { contentMediaType: 'application/x-www-form-urlencoded', schema: { type: 'object', required: ['channel'], properties: { channel: { type: 'string', example: 'C1 & C2' } } } };
    for (const call of await callsOf({ ...BASE, requests: [form] })) {
      const fields = call.form ?? [...new URLSearchParams(call.body ?? '')];
      expect(fields).to.deep.equal([['channel', 'C1 & C2']]);
    }
  });

  it('make a body from the schema with every required property, a placeholder for one it does not describe, and no read-only one', async () => {
    const schemas = { Id: { type: 'string', readOnly: true } };
    const request = {
      contentMediaType: 'application/json',
      schema: { type: 'object', required: ['uris', 'id', 'name'], properties: { id: { $ref: '#/components/schemas/Id' }, name: { type: 'string', format: 'email' } } },
    };
    for (const call of await callsOf({ ...BASE, requests: [request], schemas })) {
      expect(JSON.parse(call.body!)).to.deep.equal({ name: 'user@example.com', uris: 'YOUR_URIS' });
    }
  });

  it('put the credential where its scheme does: a cookie, a query parameter, a bearer header', async () => {
    const [cookie] = await callsOf({ ...BASE, schemes: [{ scheme: { type: 'apiKey', in: 'cookie', parameterName: 'sid' } }] });
    expect(cookie!.headers['cookie']).to.equal('sid=YOUR_API_KEY');
    for (const call of await callsOf({ ...BASE, schemes: [{ scheme: { type: 'apiKey', in: 'query', parameterName: 'key' } }, { scheme: { type: 'oauth2' } }] })) {
      expect(new URL(call.url).searchParams.get('key')).to.equal('YOUR_API_KEY');
      expect(call.headers['authorization']).to.equal('Bearer YOUR_TOKEN');
    }
  });
});
