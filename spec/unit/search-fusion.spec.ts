// Fusion of the index's ranking with the nearest operations by vector (server/search/fusion.ts):
// the neighbours are the true top k by cosine, RRF adds reciprocal ranks, and the weighted sum
// scores every operation found by either on both signals, each normalised.
import { expect } from 'chai';
import fc from 'fast-check';
import { cosine, fuse, FUSION, nearest } from '../../server/search/fusion.ts';
import { VectorTable } from '../../server/search/vectors.ts';

function tableOf(vectors: Record<string, number[]>): VectorTable {
  const table = new VectorTable(new Map(Object.keys(vectors).map((id) => [id, { key: id, text: id }])));
  for (const [id, vector] of Object.entries(vectors)) table.vectors.set(id, Float32Array.from(vector));
  return table;
}

describe('search fusion', () => {
  it('takes the k nearest by cosine, best first, among those kept', () => {
    fc.assert(fc.property(fc.array(fc.tuple(fc.float({ min: -1, max: 1, noNaN: true }), fc.float({ min: -1, max: 1, noNaN: true })), { minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 10 }), (points, k) => {
      const table = tableOf(Object.fromEntries(points.map((point, i) => [`op${i}`, point])));
      const query = Float32Array.from([0.6, 0.8]);
      const expected = [...table.vectors.keys()].map((id) => ({ id, score: cosine(table, query, id) })).sort((a, b) => b.score - a.score).slice(0, k);
      expect(nearest(table, query, k).map(({ score }) => score)).to.deep.equal(expected.map(({ score }) => score));
      const kept = nearest(table, query, k, (id) => id.endsWith('1'));
      expect(kept.every(({ id }) => id.endsWith('1'))).to.equal(true);
    }));
  });

  it('takes the same neighbours whatever order equal vectors arrived in: equal cosines go by id', () => {
    const ids = Array.from({ length: 12 }, (_, i) => `op${String(i).padStart(2, '0')}`);
    const query = Float32Array.from([0.6, 0.8]);
    const arrived = (order: string[]) => tableOf(Object.fromEntries(order.map((id) => [id, Number(id.slice(2)) % 3 === 0 ? [1, 0] : [0.6, 0.8]])));
    const forward = nearest(arrived(ids), query, 5);
    expect(nearest(arrived(ids.toReversed()), query, 5)).to.deep.equal(forward);
    expect(forward.map(({ id }) => id)).to.deep.equal(['op01', 'op02', 'op04', 'op05', 'op07']);
  });

  it('adds reciprocal ranks with RRF, so one found by both rankings beats one found first by one', () => {
    const fused = fuse([{ id: 'a', score: 9 }, { id: 'b', score: 5 }], [{ id: 'b', score: 0.9 }, { id: 'c', score: 0.8 }], { ...FUSION, method: 'rrf', k: 5 }, () => 0);
    expect(fused.get('b')).to.be.closeTo(1 / 7 + 1 / 6, 1e-12);
    expect(fused.get('a')).to.be.closeTo(1 / 6, 1e-12);
    expect(fused.get('b')!).to.be.greaterThan(fused.get('a')!);
  });

  it('weighs the index\'s score over its best and the cosine min-max normalised over every operation found', () => {
    const cosines: Record<string, number> = { a: 0.2, b: 0.6, c: 0.4 };
    const fused = fuse([{ id: 'a', score: 10 }, { id: 'b', score: 5 }], [{ id: 'b', score: 0.6 }, { id: 'c', score: 0.4 }], { ...FUSION, method: 'weighted', lexicalWeight: 0.25 }, (id) => cosines[id]!);
    expect(fused.get('a')).to.be.closeTo(0.25 * 1 + 0.75 * 0, 1e-12);
    expect(fused.get('b')).to.be.closeTo(0.25 * 0.5 + 0.75 * 1, 1e-12);
    expect(fused.get('c')).to.be.closeTo(0.25 * 0 + 0.75 * 0.5, 1e-12);
  });
});
