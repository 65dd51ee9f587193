// `npm run model:fetch`: the search model's pinned files into <repo>/.cache/models/all-MiniLM-L6-v2
// (no-op when there), checked against their sha256; prints the folder. CI runs it before the tests.
import path from 'node:path';
import { Embedder } from '../server/search/model/embedder.ts';
import { fetchDefaultModel, PINNED_FILES } from '../server/search/model/files.ts';

const cacheDir = path.resolve(import.meta.dirname, '..', '.cache');
try {
  const dir = await fetchDefaultModel(cacheDir, (message) => console.error(message));
  // Loaded once, so a changed file is reported here rather than by the first test.
  await (await Embedder.load(dir, PINNED_FILES)).close();
  console.log(dir);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
