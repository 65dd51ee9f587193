// Stable document positions (server/ownership/document-order.ts): what a re-import keeps and what it renumbers.
import { expect } from 'chai';
import { stablePositions } from '../../server/ownership/document-order.ts';

const increasing = (positions: readonly number[]) => positions.every((position, i) => i === 0 || position > positions[i - 1]!);

describe('document order: stable positions', () => {
  it('numbers a first import 0, 1, 2...', () => {
    expect(stablePositions([undefined, undefined, undefined])).to.deep.equal([0, 1, 2]);
  });

  it('keeps every stored position when records are only removed', () => {
    expect(stablePositions([0, 2, 3, 7])).to.deep.equal([0, 2, 3, 7]);
  });

  it('places records inserted first, in the middle and last between their neighbours, moving no other', () => {
    const positions = stablePositions([undefined, undefined, 0, 1, undefined, 2, undefined]);
    expect(positions.filter((_, i) => [2, 3, 5].includes(i))).to.deep.equal([0, 1, 2]);
    expect(increasing(positions)).to.equal(true);
  });

  it('moves only the record that moved (the longest run in order keeps its positions)', () => {
    const positions = stablePositions([0, 1, 4, 2, 3, 5]);
    expect([positions[0], positions[1], positions[3], positions[4], positions[5]]).to.deep.equal([0, 1, 2, 3, 5]);
    expect(increasing(positions)).to.equal(true);
  });

  it('inserts again and again at one place, then renumbers everything once doubles run out of room', () => {
    let stored: (number | undefined)[] = [0, 1];
    for (let round = 0; round < 80; round++) {
      const positions = stablePositions([stored[0], undefined, ...stored.slice(1)]);
      expect(increasing(positions), `round ${round}`).to.equal(true);
      stored = positions;
    }
    expect(stored).to.have.length(82);
  });
});
