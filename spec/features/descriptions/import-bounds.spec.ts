// An import is bounded before it costs: a description whose references stand for a
// tree of millions of objects, or that nests deeper than any record may, is refused with 400
// naming the bound, in time and memory proportional to what was sent. The expanding ones are
// imported in a child process with a bounded heap (CHILD_HEAP_MB): a regression exhausts that heap
// and kills the child, which fails the spec, not the runner. The heap bound is the memory check;
// the peak RSS is the benchmarks' to report (it counts code and buffers outside the heap and
// varies by machine: 529 MB on CI against a 512 MB heap, with the import refused as it should be).
import { expect } from 'chai';
import { bearer, catalogForSuite, type TestCatalog, type Tenant } from '../../support/catalog.ts';
import { nestedText } from './expanding.ts';
import { importedInChild } from './in-child.ts';

const EXPANDS = /expands to more than the \d+ members a description may have once its references are resolved/;

describe('descriptions: an import is bounded before it costs', function () {
  this.timeout(180_000);
  let service: TestCatalog;
  let tenant: Tenant;

  catalogForSuite((made) => ({ service, tenant } = made));

  it('refuses the 3.5 KB description of callbacks six levels deep, ten wide, with 400 naming the bound (it exhausted the heap)', async () => {
    const { outcomes } = await importedInChild(tenant, [{ name: 'callbacks 6 × 10', section: 'callbacks', levels: 6, fanOut: 10 }]);
    const [outcome] = outcomes;
    expect(outcome!.bytes).to.be.below(3_600);
    expect(outcome!.status, JSON.stringify(outcome)).to.equal(400);
    expect(outcome!.details).to.have.length(1);
    expect(outcome!.details[0]!.field).to.match(/^\/paths\/~1hook\/post\/callbacks\/top\//);
    expect(outcome!.details[0]!.message).to.match(EXPANDS);
  });

  it('refuses response schemas chained through #/components/responses/…/schema six levels deep with 400 naming the bound', async () => {
    const { outcomes } = await importedInChild(tenant, [{ name: 'responses 6 × 10', section: 'responses', levels: 6, fanOut: 10 }]);
    expect(outcomes[0]!.status, JSON.stringify(outcomes[0])).to.equal(400);
    expect(outcomes[0]!.details[0]!.message).to.match(EXPANDS);
  });

  it('still imports what references repeat within the bound (callbacks three levels of ten)', async () => {
    const { outcomes } = await importedInChild(tenant, [{ name: 'callbacks 3 × 10', section: 'callbacks', levels: 3, fanOut: 10 }]);
    expect(outcomes[0]!.status, JSON.stringify(outcomes[0])).to.equal(200);
  });

  const TOO_DEEP = 'nests deeper than the 128 levels a description may have (twice RECORD_MAX_DEPTH)';
  const importText = (text: string, format: 'json' | 'yaml') => service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=deep&dryRun=true`)
    .set(bearer(tenant.key)).set('Content-Type', `application/${format}`).send(text);

  it('refuses a JSON description nesting 10,000 levels with 400 naming the bound and where (it was a 500)', async () => {
    const res = await importText(nestedText(10_000, 'json'), 'json');
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).to.equal(400);
    expect(res.body.details).to.deep.equal([{ field: `/info/x-deep${'/n'.repeat(126)}`, message: TOO_DEEP }]);
  });

  it('refuses a YAML description nesting 10,000 levels with 400 naming the bound (the parser\'s overflow was "not valid YAML")', async () => {
    const res = await importText(nestedText(10_000, 'yaml'), 'yaml');
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).to.equal(400);
    expect(res.body.details).to.have.length(1);
    expect(res.body.details[0]).to.include({ field: '/' });
    expect(res.body.details[0].message).to.match(new RegExp(`^${TOO_DEEP.replace(/[()]/g, '\\$&')} at line \\d+, column \\d+`));
  });

  it('refuses a description just beyond the depth bound, and takes one just within it', async () => {
    const beyond = await importText(nestedText(127, 'json'), 'json');
    expect(beyond.body.details, JSON.stringify(beyond.body)).to.deep.equal([{ field: `/info/x-deep${'/n'.repeat(126)}`, message: TOO_DEEP }]);
    const within = await importText(nestedText(126, 'json'), 'json');
    expect(within.status, JSON.stringify(within.body).slice(0, 300)).to.not.equal(500);
    expect(JSON.stringify(within.body)).to.not.include('a description may have');
  });
});
