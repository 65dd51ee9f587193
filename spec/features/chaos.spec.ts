// A short chaos run (`npm run chaos` runs longer ones): the service as a real process, killed
// and its database killed and frozen under write load; no acknowledged write may be lost.
import { expect } from 'chai';
import { describeChaos, runChaos } from '../chaos/run.ts';

describe('Chaos: kills and freezes under write load', function () {
  // Under a minute alone; longer on a machine shared by several test runs.
  this.timeout(600_000);

  it('loses no acknowledged write through a service kill, a database freeze and a database kill', async () => {
    const report = await runChaos({
      cycles: 3,
      faults: ['service-kill', 'database-stop', 'database-kill'],
      seed: 20261123,
      writers: 3,
      recoveryLimitMs: 5000,
      maxFreezeMs: 2000,
    });
    const summary = describeChaos(report);
    expect(report.cycles, summary).to.have.length(3);
    expect(report.acknowledged, summary).to.be.greaterThan(0);
    expect(report.lost, summary).to.equal(0);
  });
});
