// npm run bench:search:offline -- <view.json> [--tuning-only] [--rankers a,b] [--misses]: the
// evaluation's accuracy on a view saved by `npm run bench:search -- --save-view <file>`, without
// the database or the HTTP route (main.ts checks that the route answers as the index does). For
// quick, repeated measurement while tuning: --tuning-only scores and prints the tuning half only.
import { evaluate, formatAccuracy, formatMisses } from './accuracy.ts';
import { evaluationHalves, tuningOnly } from './halves.ts';
import { rankersFor } from './rankers.ts';
import { loadView } from './view-file.ts';

const args = process.argv.slice(2);
const file = args.find((arg, at) => !arg.startsWith('--') && args[at - 1] !== '--rankers');
if (!file) throw new Error('usage: offline.ts <view.json> [--tuning-only] [--rankers a,b] [--misses]');
const halves = await evaluationHalves();
const view = loadView(file);
const services = new Map(view.of('services').map((service) => [String(service['slug']), service.id]));
const absent = halves.flatMap((set) => set.sources).filter((source) => !services.has(source.slug)).map((source) => source.slug);
if (absent.length > 0) throw new Error(`${file} has no ${absent.join(', ')}: save a view from a run with the same halves${tuningOnly ? '' : ', or add --tuning-only'}`);
const results = await evaluate(await rankersFor(view), halves, services);
console.log(`## Accuracy: ${halves.map((set) => `${set.tasks.length} ${set.half}`).join(' and ')} tasks (${view.of('operations').length} operations in one version, saved view ${file})`);
for (const line of formatAccuracy(results, halves)) console.log(line);
if (process.argv.includes('--misses')) for (const line of formatMisses(results)) console.log(line);
