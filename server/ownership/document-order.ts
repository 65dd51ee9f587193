// Positions of a re-imported document's records that keep the stored ones where they can: an
// insertion or removal must not move (and so rewrite) every record after it (a one-operation change must write about one record).
//
// The records that keep their relative order are the longest strictly increasing run of their
// stored positions, in document order; they keep their positions. The others (new records, moved
// ones) get positions between their kept neighbours: fractions when the gap is narrower than
// their count. Positions are plain numbers, so export and search still sort by them as before.

/**
 * New positions for records in document order, given each one's stored position (undefined: a
 * new record). Kept records keep theirs; when doubles run out of room between two kept ones
 * (about 50 insertions at the same place), everything is numbered afresh, 0, 1, 2...
 */
export function stablePositions(stored: readonly (number | undefined)[]): number[] {
  const kept = longestIncreasing(stored);
  const positions = new Array<number>(stored.length);
  for (const index of kept) positions[index] = stored[index]!;
  let previous = -1;
  for (const next of [...kept, stored.length]) {
    const count = next - previous - 1;
    if (count > 0) {
      const low = previous >= 0 ? positions[previous] : undefined;
      const high = next < stored.length ? positions[next] : undefined;
      for (let k = 1; k <= count; k++) positions[previous + k] = between(low, high, k, count);
    }
    previous = next;
  }
  for (let i = 1; i < positions.length; i++) if (!(positions[i]! > positions[i - 1]!)) return stored.map((_, index) => index);
  return positions;
}

/** The k-th of `count` positions (1-based) strictly between `low` and `high`, either of which may be open. */
function between(low: number | undefined, high: number | undefined, k: number, count: number): number {
  if (low === undefined && high === undefined) return k - 1;
  if (high === undefined) return low! + k;
  if (low === undefined) return high - (count + 1 - k);
  // Whole steps where the gap allows, so positions stay integers as long as they can.
  const step = (high - low) / (count + 1);
  return step >= 1 ? low + k * Math.floor(step) : low + k * step;
}

/** Indices (ascending) of a longest strictly increasing subsequence of the defined values: patience sorting, O(n log n). */
function longestIncreasing(values: readonly (number | undefined)[]): number[] {
  const tails: number[] = []; // tails[l]: index of the smallest last value of a run of length l + 1
  const before = new Array<number>(values.length).fill(-1);
  values.forEach((value, index) => {
    if (value === undefined || !Number.isFinite(value)) return;
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (values[tails[mid]!]! < value) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) before[index] = tails[lo - 1]!;
    tails[lo] = index;
  });
  const run: number[] = [];
  for (let index = tails.length > 0 ? tails[tails.length - 1]! : -1; index >= 0; index = before[index]!) run.push(index);
  return run.reverse();
}
