// Unit tests for scripts/bench/memory.ts: the peaks it reports must include memory that was
// taken and let go again inside synchronous work, where no timer fires (as in an import's
// parse and dereference). No timing is asserted: the benchmark is a tool, not a test.
import { expect } from 'chai';
import { MemorySampler } from '../../scripts/bench/memory.ts';

describe('bench memory sampler', () => {
  it('reports a heap peak reached and released between two timer turns', () => {
    const sampler = new MemorySampler({ intervalMs: 1000 });
    sampler.start();
    let rows: { i: number; text: string }[] | undefined = [];
    for (let i = 0; i < 1_000_000; i++) rows.push({ i, text: `row ${i}` });
    const held = rows.length;
    rows = undefined;
    const result = sampler.stop();
    expect(held).to.equal(1_000_000);
    expect(result.peak.heapUsedMB - result.before.heapUsedMB).to.be.above(30);
  });

  it('reports an RSS peak released before stop, on Linux from the kernel high-water mark', function () {
    if (process.platform !== 'linux') this.skip();
    const sampler = new MemorySampler({ intervalMs: 1000 });
    sampler.start();
    let buffer: Buffer | undefined = Buffer.alloc(256 * 1024 * 1024, 1);
    const size = buffer.length;
    buffer = undefined;
    const result = sampler.stop();
    expect(size).to.equal(256 * 1024 * 1024);
    expect(result.rssSource).to.equal('VmHWM');
    expect(result.peak.rssMB - result.before.rssMB).to.be.above(200);
  });

  it('refuses to stop before it starts, and to start twice', () => {
    const sampler = new MemorySampler();
    expect(() => sampler.stop()).to.throw(/not running/);
    sampler.start();
    expect(() => sampler.start()).to.throw(/already running/);
    sampler.stop();
  });
});
