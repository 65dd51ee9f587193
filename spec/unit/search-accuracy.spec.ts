// Unit tests for the search evaluation's scoring (scripts/bench/search/accuracy.ts): the figures
// from known rankings, the service filter handed to a ranker, and async rankers (the slot for
// rankings that run a model).
import { expect } from 'chai';
import { evaluate, formatAccuracy, scoresOf } from '../../scripts/bench/search/accuracy.ts';
import type { Ranker, Scope } from '../../scripts/bench/search/rankers.ts';
import type { TaskSet } from '../../scripts/bench/search/task-set.ts';
import { intent, on, plain } from '../../scripts/bench/search/task-set.ts';

const SET: TaskSet = {
  half: 'tuning',
  sources: [{ slug: 'shop', title: 'Shop', file: 'none' }],
  tasks: on('shop', [
    plain('first', 'a'),
    plain('third', 'c'),
    intent('two answers, one in the top ten', 'x', 'b'),
    intent('not found', 'z'),
  ]),
};

/** Always answers a, b, c, then twenty others; records the scopes it was asked with. */
function fixedRanker(scopes: (Scope | undefined)[]): Ranker {
  return {
    name: 'fixed',
    rank: async (_query, scope, limit) => {
      scopes.push(scope);
      return ['a', 'b', 'c', ...Array.from({ length: 20 }, (_, i) => `o${i}`)].slice(0, limit);
    },
  };
}

describe('search evaluation scoring', () => {
  it('scores hit@1, hit@5, MRR and recall@10 from the ranks', async () => {
    const [result] = await evaluate([fixedRanker([])], [SET], new Map([['shop', 'svc-1']]));
    expect(result!.whole.map((o) => o.rank)).to.deep.equal([1, 3, 2, 0]);
    const scores = scoresOf(result!.whole);
    expect(scores.tasks).to.equal(4);
    expect(scores.hit1).to.equal(0.25);
    expect(scores.hit5).to.equal(0.75);
    expect(scores.mrr).to.be.closeTo((1 + 1 / 3 + 1 / 2 + 0) / 4, 1e-12);
    expect(scores.recall10).to.be.closeTo((1 + 1 + 0.5 + 0) / 4, 1e-12);
  });

  it('asks the whole version without a scope and the filtered run with the service id and slug', async () => {
    const scopes: (Scope | undefined)[] = [];
    await evaluate([fixedRanker(scopes)], [SET], new Map([['shop', 'svc-1']]));
    expect(scopes.slice(0, 4)).to.deep.equal([undefined, undefined, undefined, undefined]);
    expect(scopes.slice(4)).to.deep.equal(Array(4).fill({ serviceId: 'svc-1', slug: 'shop' }));
  });

  it('refuses a task whose service is not in the version', async () => {
    const error = await evaluate([fixedRanker([])], [SET], new Map()).then(() => undefined, (e: Error) => e);
    expect(error?.message).to.match(/service shop is not in the version/);
  });

  it('reports each half by phrasing and by API', async () => {
    const results = await evaluate([fixedRanker([])], [SET], new Map([['shop', 'svc-1']]));
    const lines = formatAccuracy(results, [SET]);
    expect(lines.find((line) => line.startsWith('intent'))).to.match(/\s2 \|\s+0%\s+50%\s+0\.25\s+25% \|/);
    expect(lines.find((line) => line.startsWith('plain'))).to.match(/\s2 \|\s+50%\s+100%\s+0\.67\s+100% \|/);
    expect(lines.some((line) => line.startsWith('shop'))).to.equal(true);
  });
});
