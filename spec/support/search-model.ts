// The search model for the tests that need it: a model of the table's folder (the default's
// unless named), fetched into the repository's cache by the project's own script on first need
// (as a newcomer's `npm test` must).
import path from 'node:path';
import { repoRoot } from '../../server/config.ts';
import { fetchModel } from '../../server/search/model/files.ts';
import { defaultModel, type ModelSpec } from '../../server/search/model/models.ts';

export async function pinnedModel(spec: ModelSpec = defaultModel()): Promise<string> {
  return fetchModel(path.join(repoRoot, '.cache'), spec, (line) => process.stdout.write(`  ${line}\n`));
}
