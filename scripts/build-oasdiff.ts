// `npm run reference:build`: builds oasdiff, the outside reference of the changes tests
// (spec/features/changes/reference.spec.ts), into <repo>/.cache/bin/oasdiff (no-op when present)
// and prints its path. The test builds it itself on first need; CI runs this beforehand, visibly.
import { buildReference } from './changes/reference.ts';

try {
  console.log(await buildReference((line) => console.error(`reference: ${line}`)));
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
}
