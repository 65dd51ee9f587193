// Agreement with oasdiff, the outside reference, on real pairs of releases (GitHub 18 → 23 and
// three Adyen APIs): most operations either finds broken the other finds broken too. Run as
// `npm run changes:agreement` runs it (scripts/changes/agreement.ts, a command: tests import no
// script), which builds oasdiff on first need (as FerretDB is); where it cannot be, this fails
// with one line saying so, rather than passing without having compared anything.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { repoRoot } from '../../../server/config.ts';

// docs/changes.md explains what is left between the two; these floors keep it from growing.
const FLOOR: Readonly<Record<string, number>> = { github: 0.6, adyen: 0.5 };

/** The pairs the command compares, by the start of their names. */
const PAIRS = ['GitHub api.github.com', 'Adyen Checkout', 'Adyen Management', 'Adyen Transfers'];

interface Agreement {
  pair: string;
  operations: { both: number; oursOnly: number; oasdiffOnly: number };
  oursOnlyRules: unknown;
  oasdiffOnlyRules: unknown;
}

describe('changes: agreement with oasdiff on real pairs of releases', function () {
  // GitHub's description is 11 MB a side: preparing and comparing take a while on a shared machine.
  this.timeout(600_000);
  let agreements: Agreement[] = [];

  before(async function () {
    // A fresh machine builds oasdiff first: a few minutes with a cold Go cache.
    this.timeout(30 * 60_000);
    const command = path.join(repoRoot, 'scripts', 'changes', 'agreement.ts');
    try {
      const { stdout } = await promisify(execFile)(process.execPath, [command], { maxBuffer: 64 * 1024 * 1024 });
      // One JSON object per pair, each printed over several lines and closed by a `}` of its own.
      agreements = stdout.split(/^\}$/m).filter((part) => part.trim()).map((part) => JSON.parse(`${part}}`) as Agreement);
    } catch (error) {
      const said = String((error as { stderr?: string }).stderr ?? '').trim().split('\n').at(-1);
      throw new Error(said || String(error));
    }
  });

  for (const name of PAIRS) {
    it(name, () => {
      const agreement = agreements.find((candidate) => candidate.pair.startsWith(name));
      expect(agreement, `no figures for ${name} in ${agreements.map((each) => each.pair).join(', ')}`).to.not.equal(undefined);
      const floor = FLOOR[name.startsWith('GitHub') ? 'github' : 'adyen']!;
      const { both, oursOnly, oasdiffOnly } = agreement!.operations;
      expect(both, 'operations both find broken').to.be.greaterThan(0);
      // From the counts, not the printed ratio (rounded to three places).
      expect(both / (both + oursOnly + oasdiffOnly), JSON.stringify({ oursOnly: agreement!.oursOnlyRules, oasdiffOnly: agreement!.oasdiffOnlyRules })).to.be.at.least(floor);
    });
  }
});
