// A bounded, seeded run of the HTTP fuzz suite (`npm run fuzz` runs longer ones).
import { expect } from 'chai';
import { generateRequests } from '../fuzz/requests.ts';
import { describeReport, runFuzz } from '../fuzz/run.ts';
import { fuzzWorld, type FuzzWorld } from '../fuzz/setup.ts';

const REQUESTS = 200;
const SEED = 20261123;

describe('Fuzz: generated requests against every route', function () {
  // Seconds alone; minutes in a full run, where each rejected request's check reads every
  // collection of the shared test database (FerretDB scans it whole): over 600 s on two cores.
  this.timeout(1_200_000);
  let world: FuzzWorld;

  before(async () => {
    world = await fuzzWorld();
  });
  after(() => world.close());

  it(`${REQUESTS} requests (seed ${SEED}): no 5xx, every error {error, details?}, rejected requests change nothing`, async () => {
    const report = await runFuzz(world.target, generateRequests(world.targets, REQUESTS, SEED));
    expect(report.failures, describeReport(report, SEED)).to.deep.equal([]);
    expect(report.tried).to.be.greaterThan(REQUESTS * 0.9);
    // The run reached past authentication and validation: some writes succeeded, some were refused.
    expect(Object.keys(report.statuses)).to.include.members(['200', '201', '400', '401', '403', '404']);
  });
});
