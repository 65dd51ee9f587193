// `npm run db:build`: builds FerretDB into <repo>/.cache/bin/ferretdb (no-op when present) and
// prints its path. CI runs it before the tests on machines without a downloadable mongod.
import * as path from 'node:path';
import { buildFerretDB } from '../server/database/provision.ts';

const cacheDir = path.resolve(import.meta.dirname, '..', '.cache');
try {
  console.log(await buildFerretDB(cacheDir, (message) => console.error(message)));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
