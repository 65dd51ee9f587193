// npm run bench:search:tune -- <view.json>: the fusion's settings measured on the TUNING half only
// (tasks.ts; the held-out half is never loaded here), whole version: reciprocal rank fusion and
// the weighted sum of normalised scores side by side over a small grid, best first by hit@1 then
// hit@5 then MRR. The view is one saved by `npm run bench:search -- --tuning-only --save-view`.
import type { VersionView } from '../../../server/search/endpoints.ts';
import { FUSION, nearest, type Fusion } from '../../../server/search/fusion.ts';
import { VersionIndex } from '../../../server/search/ranking.ts';
import { scoresOf, type Outcome } from './accuracy.ts';
import { filledTable } from './model-rankers.ts';
import { TUNING } from './tasks.ts';
import { loadView } from './view-file.ts';

const file = process.argv[2];
if (!file) throw new Error('usage: tune.ts <view.json>');
const view: VersionView = loadView(file);
const index = await VersionIndex.of(view);
const { table, embedder, embedded, embedSeconds } = await filledTable(view);
index.vectors = table;
console.log(`${table.texts.size} operations; ${embedded} embedded now in ${embedSeconds.toFixed(1)} s`);
const serviceIds = new Map(view.of('services').map((service) => [String(service['slug']), service.id]));
const queries = new Map<string, Float32Array>();
for (const task of TUNING.tasks) if (!queries.has(task.ask)) queries.set(task.ask, (await embedder.embed([task.ask]))[0]!);

function outcomes(fusion: Fusion | undefined, filtered: boolean): Outcome[] {
  return TUNING.tasks.map((task) => {
    const answer = index.rank({ query: task.ask, limit: 20, ...(fusion ? { vector: queries.get(task.ask)!, fusion } : {}), ...(filtered ? { serviceId: serviceIds.get(task.service)! } : {}) });
    const top = answer.ranked.map(({ operation }) => String(operation['operationId']));
    const rank = top.findIndex((operationId) => task.expected.includes(operationId)) + 1;
    return { task, half: 'tuning', rank, recall10: 0, top };
  });
}

// The grid of the last run (the first, wider one is in docs/bench-results/search-tuning-2026-11-25.txt): weighted sums around
// the best lexical weight found, RRF's best constant beside them.
const grid: Fusion[] = [];
for (const namingPower of [0.5, 0.75]) {
  grid.push({ ...FUSION, method: 'rrf', k: 5, namingPower, neighbours: 30 });
  for (const lexicalWeight of [0, 0.1, 0.15, 0.2, 0.25]) grid.push({ ...FUSION, method: 'weighted', lexicalWeight, namingPower, neighbours: 30 });
}
const pct = (value: number) => `${(value * 100).toFixed(1)}%`.padStart(6);
const dense = (): Outcome[] => TUNING.tasks.map((task) => {
  const top = nearest(table, queries.get(task.ask)!, 20).map(({ id }) => String(index.view.byId('operations', id)?.['operationId']));
  return { task, half: 'tuning', rank: top.findIndex((operationId) => task.expected.includes(operationId)) + 1, recall10: 0, top };
});
const rows = [{ label: 'index alone', scores: scoresOf(outcomes(undefined, false)) }, { label: 'dense only', scores: scoresOf(dense()) },
  ...grid.map((fusion) => ({
    label: fusion.method === 'rrf' ? `rrf k=${fusion.k} naming^${fusion.namingPower} n=${fusion.neighbours}` : `weighted lex=${fusion.lexicalWeight} naming^${fusion.namingPower} n=${fusion.neighbours}`,
    scores: scoresOf(outcomes(fusion, false)),
  }))];
rows.sort((a, b) => b.scores.hit1 - a.scores.hit1 || b.scores.hit5 - a.scores.hit5 || b.scores.mrr - a.scores.mrr);
console.log(`tuning half, ${TUNING.tasks.length} tasks, whole version:   hit@1  hit@5   MRR`);
for (const row of rows) console.log(`${row.label.padEnd(44)} ${pct(row.scores.hit1)} ${pct(row.scores.hit5)} ${row.scores.mrr.toFixed(3)}`);
const current = scoresOf(outcomes(FUSION, true));
console.log(`FUSION as configured, with the service filter: ${pct(current.hit1)} ${pct(current.hit5)} ${current.mrr.toFixed(3)}`);
await embedder.close();
