// npm run bench:search:offline -- <view.json> [--misses]: the evaluation set's accuracy on a view
// saved by `npm run bench:search -- --save-view <file>`, without the database or the HTTP route
// (main.ts checks that the route answers as the index does). For quick, repeated measurement.
import { accuracy, formatAccuracy } from './accuracy.ts';
import { baselineRanker, indexRanker, oldRanker } from './rankers.ts';
import { TASKS } from './tasks.ts';
import { loadView } from './view-file.ts';

const file = process.argv[2];
if (!file || file.startsWith('--')) throw new Error('usage: offline.ts <view.json> [--misses]');
const view = loadView(file);
const services = new Map(view.of('services').map((service) => [String(service['slug']), service.id]));
const results = accuracy([await indexRanker(view), oldRanker(view), baselineRanker(view)], TASKS, services);
console.log(`## Accuracy: ${TASKS.length} tasks (${view.of('operations').length} operations in one version, saved view ${file})`);
for (const line of formatAccuracy(results)) console.log(line);
if (process.argv.includes('--misses')) for (const line of results.misses) console.log(line);
