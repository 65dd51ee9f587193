// The measures of an incoming description (server/descriptions/expansion.ts), without a database:
// a graph copied as a graph, its tree counted without being made, refusals naming where.
import { expect } from 'chai';
import { boundedCopy, descriptionBounds, measureSent } from '../../server/descriptions/expansion.ts';
import { InvalidRequest } from '../../server/errors.ts';

const unbounded = { maxDepth: Infinity, maxMembers: Infinity };
const same = (key: string) => key;

function refusal(run: () => unknown): { field: string; message: string } {
  try {
    run();
  } catch (error) {
    expect(error).to.be.instanceOf(InvalidRequest);
    return ((error as InvalidRequest).details as { field: string; message: string }[])[0]!;
  }
  throw new Error('not refused');
}

/** `levels` objects each naming the one below `fanOut` times: a graph of levels + 1 objects standing for fanOut^levels leaves. */
function fanned(levels: number, fanOut: number): object {
  let below: object = { leaf: true };
  for (let level = 0; level < levels; level++) {
    const shared = below;
    below = Object.fromEntries(Array.from({ length: fanOut }, (_, i) => [`k${i}`, shared]));
  }
  return below;
}

describe('expansion: what a description costs, measured before it costs it', () => {
  it('counts the members of a description as sent, arrays and objects alike', () => {
    expect(measureSent({ a: [1, 2, { b: 3 }], c: {} }, 10)).to.equal(6);
  });

  it('refuses nesting past the bound at the first object too deep, without recursing (100,000 levels)', () => {
    let deep: unknown = 1;
    for (let level = 0; level < 100_000; level++) deep = { n: deep };
    const { field, message } = refusal(() => measureSent(deep, 4));
    expect(field).to.equal('/n/n/n/n');
    expect(message).to.match(/^nests deeper than the 4 levels/);
  });

  it('copies a shared object once, keeps it shared, and counts it as often as the tree repeats it', () => {
    const graph = fanned(6, 10);
    const { value, members, depth } = boundedCopy(graph, same, unbounded);
    const copy = value as Record<string, Record<string, unknown>>;
    expect(copy).to.not.equal(graph);
    expect(copy['k0']).to.equal(copy['k9']);
    expect(members).to.equal(10 + 100 + 1_000 + 10_000 + 100_000 + 1_000_000 + 1_000_000);
    expect(depth).to.equal(7);
  });

  it('stops as soon as a subtree passes the bound, naming where', () => {
    const { field, message } = refusal(() => boundedCopy({ top: fanned(8, 10) }, same, { maxDepth: 100, maxMembers: 5_000 }));
    expect(field).to.equal('/top/k0/k0/k0/k0');
    expect(message).to.match(/^expands to more than the 5000 members a description may have/);
  });

  it('refuses a tree deeper than the bound that only references make deep', () => {
    let chain: object = { end: true };
    for (let level = 0; level < 50; level++) chain = { a: chain, b: chain };
    expect(refusal(() => boundedCopy(chain, same, { maxDepth: 20, maxMembers: Infinity })).message).to.match(/^nests deeper than the 20 levels/);
  });

  it('refuses a circular graph, and renames keys as asked, __proto__ too', () => {
    const circular: Record<string, unknown> = { a: {} };
    (circular['a'] as Record<string, unknown>)['back'] = circular;
    expect(refusal(() => boundedCopy(circular, same, unbounded))).to.deep.equal({ field: '/a/back', message: 'holds a circular reference outside components.schemas' });
    const { value } = boundedCopy(JSON.parse('{"$ref": "x", "__proto__": {"$ref": "y"}}'), (key) => (key === '$ref' ? '$kept' : key), unbounded);
    expect(JSON.stringify(value)).to.equal('{"$kept":"x","__proto__":{"$kept":"y"}}');
  });

  it('allows 20 times the members sent, at least 4 and at most 60 records of RECORD_MAX_KEYS', () => {
    const limits = { maxDepth: 64, maxKeys: 50_000 };
    expect(descriptionBounds(limits, 1_000)).to.deep.equal({ maxDepth: 128, maxMembers: 200_000 });
    expect(descriptionBounds(limits, 100_000)).to.deep.equal({ maxDepth: 128, maxMembers: 2_000_000 });
    expect(descriptionBounds(limits, 1_000_000)).to.deep.equal({ maxDepth: 128, maxMembers: 3_000_000 });
  });
});
