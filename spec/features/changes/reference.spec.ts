// Agreement with oasdiff, the outside reference, on real pairs of releases (GitHub 18 → 23 and
// three Adyen APIs; scripts/changes/reference.ts): most operations either finds broken the other
// finds broken too. oasdiff is built on first need (as FerretDB is); where it cannot be, this fails
// with one line saying so, rather than passing without having compared anything.
import { expect } from 'chai';
import { PAIRS, agreementOn, agreementRatio, buildReference } from '../../../scripts/changes/reference.ts';

// docs/changes.md explains what is left between the two; these floors keep it from growing.
const FLOOR: Readonly<Record<string, number>> = { github: 0.6, adyen: 0.5 };

describe('changes: agreement with oasdiff on real pairs of releases', function () {
  // GitHub's description is 11 MB a side: preparing and comparing take a while on a shared machine.
  this.timeout(600_000);

  before(async function () {
    // A fresh machine builds it first: a few minutes with a cold Go cache.
    this.timeout(20 * 60_000);
    await buildReference((line) => process.stdout.write(`  [oasdiff] ${line}\n`));
  });

  for (const pair of PAIRS) {
    it(pair.name, async () => {
      const agreement = await agreementOn(pair);
      const floor = FLOOR[pair.name.startsWith('GitHub') ? 'github' : 'adyen']!;
      expect(agreement.both.length, 'operations both find broken').to.be.greaterThan(0);
      expect(agreementRatio(agreement), JSON.stringify({ oursOnly: agreement.oursOnlyRules, oasdiffOnly: agreement.theirsOnlyRules })).to.be.at.least(floor);
    });
  }
});
