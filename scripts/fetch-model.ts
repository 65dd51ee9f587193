// `npm run model:fetch [-- <id> ...]`: a search model's pinned files (the default model's, or
// those of the ids named, from the table in server/search/model/models.ts) into
// CACHE_DIR/models/<id> (CACHE_DIR as the service reads it, <repo>/.cache by default; no-op when
// there), checked against their sha256 and loaded once; prints each folder. CI runs it before the tests.
import { loadConfig } from '../server/config.ts';
import { fetchModel } from '../server/search/model/files.ts';
import { DEFAULT_MODEL_ID, MODELS, modelSpec } from '../server/search/model/models.ts';
import { loadPinned } from '../server/search/model/source.ts';

const { cacheDir } = loadConfig({ CACHE_DIR: process.env['CACHE_DIR'] });
const ids = process.argv.slice(2);
try {
  for (const id of ids.length > 0 ? ids : [DEFAULT_MODEL_ID]) {
    const spec = modelSpec(id);
    if (!spec) throw new Error(`no model ${id} in the table; the table has ${MODELS.map((model) => model.id).join(', ')}`);
    const log = (message: string) => console.error(message);
    // Loaded once, so a changed file is reported here rather than by the first test.
    await (await loadPinned(cacheDir, spec, log)).close();
    console.log(await fetchModel(cacheDir, spec, log));
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
