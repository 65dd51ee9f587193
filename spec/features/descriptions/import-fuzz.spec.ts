// A fuzz of descriptions built to expand: fan-out × depth over callbacks, responses,
// request bodies, parameters, path items, examples and schemas, some padded up to 10 MB, JSON or
// YAML, imported as dry runs in one child process whose heap is bounded. Every one answers a
// legitimate 200 or is refused naming the bound it passes, and the child's peak RSS stays below
// FUZZ_RSS_MB. The cases come from a fixed seed, so a failure is the same on every run.
import { expect } from 'chai';
import fc from 'fast-check';
import { catalogForSuite, type Tenant } from '../../support/catalog.ts';
import { SECTION_NAMES, type Built } from './expanding.ts';
import { CHILD_HEAP_MB, importedInChild } from './in-child.ts';

/**
 * The peak RSS the child may reach (the fuzz documents a memory bound, so a leak fails it): its
 * heap bound plus what lies outside the heap (code, the validation thread's heap, buffers of a
 * 10 MB body), with room for machines that map more code: a bound to catch a leak or an
 * expansion past the heap's guard, not a target. Measured: see docs/openapi-import-export.md.
 */
const FUZZ_RSS_MB = CHILD_HEAP_MB + 512;
const SEED = 39;

/** A refusal names the bound: the description's own, or a record limit. */
const NAMED_BOUND = /a description may have|RECORD_MAX_(KEYS|DEPTH|BYTES)/;

const expanding: fc.Arbitrary<Omit<Built, 'name'>> = fc.record({
  section: fc.constantFrom(...SECTION_NAMES),
  fanOut: fc.integer({ min: 2, max: 16 }),
  levels: fc.integer({ min: 1, max: 9 }),
  format: fc.constantFrom('json' as const, 'yaml' as const),
});

function cases(): Built[] {
  const small = fc.sample(expanding, { seed: SEED, numRuns: 28 });
  // Padded: the bound grows with what is sent, so these expand within a larger allowance.
  const large = fc.sample(fc.record({ wanted: expanding, padBytes: fc.integer({ min: 1_000_000, max: 10_000_000 }) }), { seed: SEED + 1, numRuns: 3 })
    .map(({ wanted, padBytes }) => ({ ...wanted, format: 'json' as const, padBytes }));
  // The largest one always: the fuzz promises 10 MB.
  large.push({ section: 'callbacks', fanOut: 10, levels: 8, format: 'json', padBytes: 10_000_000 });
  return [...small, ...large].map((wanted) => ({ ...wanted, name: `${wanted.section} ${wanted.fanOut}^${wanted.levels} ${wanted.format}${wanted.padBytes ? ` +${wanted.padBytes} B` : ''}` }));
}

describe('descriptions: a fuzz of descriptions built to expand', function () {
  this.timeout(900_000);
  let tenant: Tenant;

  catalogForSuite((made) => ({ tenant } = made));

  it(`answers each with 200 or a 400 naming the bound, the importing process staying below ${FUZZ_RSS_MB} MB`, async () => {
    const wanted = cases();
    const { outcomes, maxRssMb } = await importedInChild(tenant, wanted);
    const statuses = Object.entries(Object.groupBy(outcomes, (outcome) => String(outcome.status))).map(([status, some]) => `${some!.length} × ${status}`).join(', ');
    process.stdout.write(`      ${statuses}; peak RSS of the importing child ${maxRssMb} MB; largest body ${Math.max(...outcomes.map((outcome) => outcome.bytes))} B; slowest answer ${Math.max(...outcomes.map((outcome) => outcome.ms))} ms\n`);
    expect(outcomes.map((outcome) => outcome.name)).to.deep.equal(wanted.map((one) => one.name));
    const unexpected = outcomes.filter((outcome) => outcome.status !== 200
      && !([400, 413].includes(outcome.status) && NAMED_BOUND.test(outcome.details.map((detail) => detail.message).join(' '))));
    expect(unexpected.map((outcome) => JSON.stringify(outcome).slice(0, 300))).to.deep.equal([]);
    expect(outcomes.some((outcome) => /expands to more than/.test(outcome.details[0]?.message ?? ''))).to.equal(true);
    expect(maxRssMb).to.be.below(FUZZ_RSS_MB);
  });
});
