// `npm run changes:agreement`: our breaking changes against oasdiff's on the real pairs of
// scripts/changes/reference.ts, printed as JSON (the figures of docs/changes.md).
import { PAIRS, agreementOn, agreementRatio, buildReference } from './reference.ts';

try {
  await buildReference((line) => console.error(`reference: ${line}`));
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
for (const pair of PAIRS) {
  const agreement = await agreementOn(pair);
  console.log(JSON.stringify({
    pair: agreement.pair, agreement: Number(agreementRatio(agreement).toFixed(3)),
    breakingChanges: { ours: agreement.ours, oasdiff: agreement.theirs },
    operations: { both: agreement.both.length, oursOnly: agreement.oursOnly.length, oasdiffOnly: agreement.theirsOnly.length },
    oursOnlyRules: agreement.oursOnlyRules, oasdiffOnlyRules: agreement.theirsOnlyRules,
    examples: { oursOnly: agreement.oursOnly.slice(0, 5), oasdiffOnly: agreement.theirsOnly.slice(0, 5) },
    ms: agreement.ms, peakRssMB: Math.round(process.memoryUsage().rss / 1e6),
  }, null, 1));
}
