// Agreement with oasdiff, the outside reference, on real pairs of releases (GitHub 18 → 23 and
// three Adyen APIs; scripts/changes/reference.ts): most operations either finds broken the other
// finds broken too. oasdiff is built by `npm run reference:build` (CI: .ci/run); without it this
// fails with one line saying so, rather than passing without having compared anything.
import { expect } from 'chai';
import { PAIRS, agreementOn, agreementRatio, referenceMissing } from '../../../scripts/changes/reference.ts';

// docs/changes.md explains what is left between the two; these floors keep it from growing.
const FLOOR: Readonly<Record<string, number>> = { github: 0.6, adyen: 0.5 };

describe('changes: agreement with oasdiff on real pairs of releases', function () {
  // GitHub's description is 11 MB a side: preparing and comparing take a while on a shared machine.
  this.timeout(600_000);

  before(function () {
    const missing = referenceMissing();
    if (missing) throw new Error(missing);
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
