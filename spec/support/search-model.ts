// The search model for the tests that need it: the default model's folder, fetched into the
// repository's cache by the project's own script on first need (as a newcomer's `npm test` must).
import path from 'node:path';
import { repoRoot } from '../../server/config.ts';
import { fetchDefaultModel } from '../../server/search/model/files.ts';

export async function pinnedModel(): Promise<string> {
  return fetchDefaultModel(path.join(repoRoot, '.cache'), (line) => process.stdout.write(`  ${line}\n`));
}
