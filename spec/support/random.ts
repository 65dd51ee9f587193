// A small seeded PRNG (mulberry32) for the specs and the test runs: the same seed draws the same
// operations, faults and moments, so a run can be replayed. The benches keep their own
// (scripts/bench/fixtures.ts): tests and tools share no module.

/** Numbers in [0, 1), the same sequence for the same seed. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
