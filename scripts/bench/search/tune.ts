// npm run bench:search:tune -- <view.json>: the search model's texts and the fusion's settings
// measured on the TUNING half only (tasks.ts; the held-out half is never loaded here), whole
// version: each way of embedding an operation (TEXTS) with a small grid of fusions, best first by
// hit@1 then hit@5 then MRR, overall and by phrasing. The view is one saved by
// `npm run bench:search -- --tuning-only --save-view`.
import type { VersionView } from '../../../server/search/endpoints.ts';
import { FUSION, nearest, type Fusion } from '../../../server/search/fusion.ts';
import { VersionIndex } from '../../../server/search/ranking.ts';
import { wordsOf } from '../../../server/search/text.ts';
import { descriptionSentences } from '../../../server/search/title.ts';
import { embeddingText, embeddingTexts, type TextsOf } from '../../../server/search/vectors.ts';
import { scoresOf, type Outcome } from './accuracy.ts';
import { benchModel, filledTable } from './model-rankers.ts';
import { TUNING } from './tasks.ts';
import { loadView } from './view-file.ts';

const file = process.argv[2];
if (!file) throw new Error('usage: tune.ts <view.json> [--texts a,b]');
const view: VersionView = loadView(file);

/** The passage of the description's first `count` sentences, when it says more than the title. */
const passage = (count: number): TextsOf => (v, operation, title) => {
  const text = descriptionSentences(operation['description']).slice(0, count).join(' ');
  return [embeddingText(v, operation, title), ...(text === '' || text === title ? [] : [text])];
};
/** The name in words: the method's, the path's and the operationId's, without parameters or camelCase. */
const inWords: TextsOf = (v, operation, title) => {
  const path = String(v.byId('paths', operation['pathId'])?.['path'] ?? '').split('/').filter((segment) => !segment.startsWith('{')).join(' ');
  return [[String(operation['method'] ?? '').toLowerCase(), wordsOf(path).join(' '), title, wordsOf(String(operation['operationId'] ?? '')).join(' ')].filter((part) => part !== '').join(' ')];
};
const TEXTS: Record<string, TextsOf> = {
  name: embeddingTexts,
  words: inWords,
  'words+2sent': (v, operation, title) => [...inWords(v, operation, title), ...passage(2)(v, operation, title).slice(1)],
  'name+2sent': passage(2),
  'name+1sent': passage(1),
  'name+each3': (v, operation, title) => [embeddingText(v, operation, title),
    ...descriptionSentences(operation['description']).slice(0, 3).filter((sentence) => sentence !== title)],
};
const at = process.argv.indexOf('--texts');
const chosen = at >= 0 ? process.argv[at + 1]!.split(',') : Object.keys(TEXTS);

const weightsAt = process.argv.indexOf('--weights');
const weights = weightsAt >= 0 ? process.argv[weightsAt + 1]!.split(',').map((w) => (w === 'max' ? 'max' as const : Number(w))) : ['max' as const];
const wide = process.argv.includes('--wide');
const grid: Fusion[] = wide ? [
  { ...FUSION },
  { ...FUSION, method: 'rrf' },
  ...[0.1, 0.2, 0.3].map((lexicalWeight) => ({ ...FUSION, lexicalWeight })),
  ...[0, 0.05, 0.1].flatMap((lowCoverageWeight) => (['engine', 'name'] as const).flatMap((coverage) => [false, true].map((namingByCoverage) => ({ ...FUSION, lowCoverageWeight, coverage, namingByCoverage })))),
  ...[0, 0.05].flatMap((lowCoverageWeight) => (['engine', 'name'] as const).map((coverage) => ({ ...FUSION, lexicalWeight: 0.3, lowCoverageWeight, coverage }))),
] : [
  { ...FUSION },
  { ...FUSION, method: 'rrf' },
  { ...FUSION, lexicalWeight: 0.3, lowCoverageWeight: 0.05, coverage: 'engine' },
  { ...FUSION, lowCoverageWeight: 0, coverage: 'engine', namingByCoverage: true },
  { ...FUSION, neighbours: 100 },
  { ...FUSION, namingPower: 0 },
];
const label = (f: Fusion) => f.method === 'rrf' ? `rrf k=${f.k}` : `w lex=${f.lexicalWeight}${f.lowCoverageWeight === undefined ? '' : ` low=${f.lowCoverageWeight} by ${f.coverage}${f.namingByCoverage ? ' naming×cov' : ''}`} nam^${f.namingPower}${f.neighbours === FUSION.neighbours ? '' : ` n=${f.neighbours}`}`;

const embedder = await benchModel();
const queries = new Map<string, Float32Array>();
for (const task of TUNING.tasks) if (!queries.has(task.ask)) queries.set(task.ask, (await embedder.embed([task.ask]))[0]!);
const pct = (value: number) => `${(value * 100).toFixed(1)}%`.padStart(6);
const cells = (outcomes: Outcome[]) => {
  const all = scoresOf(outcomes);
  const part = (phrasing: string) => scoresOf(outcomes.filter((o) => o.task.phrasing === phrasing));
  const [intent, plain] = [part('intent'), part('plain')];
  return { all, text: `${pct(all.hit1)} ${pct(all.hit5)} ${all.mrr.toFixed(3)} | ${pct(intent.hit1)} ${pct(intent.hit5)} ${intent.mrr.toFixed(3)} | ${pct(plain.hit1)} ${pct(plain.hit5)} ${plain.mrr.toFixed(3)}` };
};
const outcomeOf = (task: typeof TUNING.tasks[number], top: string[]): Outcome => ({ task, half: 'tuning', rank: top.findIndex((id) => task.expected.includes(id)) + 1, recall10: 0, top });

console.log(`tuning half, ${TUNING.tasks.length} tasks, whole version: all hit@1 hit@5 MRR | intent | plain`);
for (const [name, passageWeight] of chosen.flatMap((text) => (['name', 'words'].includes(text) ? [[text, 'max'] as const] : weights.map((weight) => [text, weight] as const)))) {
  const index = await VersionIndex.of(view);
  const { table, embedded, embedSeconds } = await filledTable(view, TEXTS[name]!);
  table.passageWeight = passageWeight;
  index.vectors = table;
  const operationId = (id: string) => String(index.view.byId('operations', id)?.['operationId']);
  console.log(`\n## texts ${name}, passages ${passageWeight}: ${table.texts.size} texts for ${index.size} operations (${(table.texts.size / index.size).toFixed(2)} per operation); ${embedded} embedded now in ${embedSeconds.toFixed(1)} s`);
  const rows = [
    { label: 'index alone', ...cells(TUNING.tasks.map((task) => outcomeOf(task, index.search({ query: task.ask, limit: 20 }).map((hit) => String((hit['operation'] as { operationId: unknown }).operationId))))) },
    { label: 'dense only', ...cells(TUNING.tasks.map((task) => outcomeOf(task, nearest(table, queries.get(task.ask)!, 20).map(({ id }) => operationId(id))))) },
    ...grid.map((fusion) => ({
      label: label(fusion),
      ...cells(TUNING.tasks.map((task) => outcomeOf(task, index.answer({ query: task.ask, limit: 20, vector: queries.get(task.ask)!, fusion }).hits
        .map((hit) => String((hit['operation'] as { operationId: unknown }).operationId))))),
    })),
  ];
  rows.sort((a, b) => b.all.hit1 - a.all.hit1 || b.all.hit5 - a.all.hit5 || b.all.mrr - a.all.mrr);
  for (const row of rows) console.log(`${row.label.padEnd(48)} ${row.text}`);
}
await embedder.close();
