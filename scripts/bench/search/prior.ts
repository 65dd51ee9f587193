// npm run bench:search:prior -- <view.json>: service priors measured on the TUNING half
// only (the held-out half is never loaded here), whole version, beside the served fusion: each of
// the served ranking's candidates (its final score: fused, naming, shape, service named) times how
// much the query seems to be about the candidate's service, then ordered again. Not served: the
// best was within five tasks of the served ranking (docs/bench-results/search-tuning.txt).
import type { VersionView } from '../../../server/search/endpoints.ts';
import type { CatalogRecord } from '../../../server/store/records.ts';
import { FUSION } from '../../../server/search/fusion.ts';
import { VersionIndex } from '../../../server/search/ranking.ts';
import { scoresOf, type Outcome } from './accuracy.ts';
import { filledTable } from './model-rankers.ts';
import { TUNING } from './tasks.ts';
import { loadView } from './view-file.ts';

const file = process.argv[2];
if (!file) throw new Error('usage: prior.ts <view.json>');
const view: VersionView = loadView(file);
const index = await VersionIndex.of(view);
const serviceOf = (operation: CatalogRecord) => String(view.byId('paths', operation['pathId'])?.['serviceId']);
const { table, embedder } = await filledTable(view);
index.vectors = table;
const queries = new Map<string, Float32Array>();
for (const task of TUNING.tasks) if (!queries.has(task.ask)) queries.set(task.ask, (await embedder.embed([task.ask]))[0]!);

/**
 * How much a candidate counts by its service. `from`: the service's best final score among the
 * candidates (`max`), the mean of its three best (`top3`, missing ones count 0), the mean of the
 * three best cosines of its operations over all of them (`dense3`), or the cosine with the mean
 * of its operations' vectors (`centroid`). `form`: `power`, factor (S / best S)^strength (S at
 * least a twentieth of the best); `exp`, factor exp(strength × (S − best S)), for cosines.
 */
interface ServicePrior { from: 'max' | 'top3' | 'dense3' | 'centroid'; form: 'power' | 'exp'; strength: number }

const dot = (a: Float32Array, b: Float32Array) => { let sum = 0; for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!; return sum; };
const serviceOfOp = new Map(view.of('operations').map((operation) => [operation.id, String(view.byId('paths', operation['pathId'])?.['serviceId'])]));
/** Each service's mean operation vector, unit length. */
const centroids = new Map<string, Float32Array>();
for (const [id, vector] of table.vectors) {
  const service = serviceOfOp.get(id)!;
  const sum = centroids.get(service) ?? new Float32Array(vector.length);
  for (let i = 0; i < vector.length; i++) sum[i] = sum[i]! + vector[i]!;
  centroids.set(service, sum);
}
for (const sum of centroids.values()) { const norm = Math.hypot(...sum); for (let i = 0; i < sum.length; i++) sum[i] = sum[i]! / norm; }

interface Candidate { id: string; operationId: string; service: string; score: number }

/** The served ranking's candidates (every one: fused and ordered again by naming), with their final scores. */
function candidatesOf(ask: string): Candidate[] {
  return index.rank({ query: ask, limit: 1000, vector: queries.get(ask)!, fusion: FUSION }).ranked.map(({ operation, score }) => ({ id: operation.id, operationId: String(operation['operationId']), service: serviceOf(operation), score }));
}

function withPrior(candidates: readonly Candidate[], prior: ServicePrior, vector: Float32Array): Candidate[] {
  const byService = new Map<string, number[]>();
  const add = (service: string, value: number) => { const list = byService.get(service); if (list) list.push(value); else byService.set(service, [value]); };
  if (prior.from === 'max' || prior.from === 'top3') for (const { service, score } of candidates) add(service, score);
  else if (prior.from === 'dense3') for (const [id, own] of table.vectors) add(serviceOfOp.get(id)!, dot(own, vector));
  else for (const [service, centroid] of centroids) add(service, dot(centroid, vector));
  const of = new Map([...byService].map(([service, values]) => {
    const top = values.sort((a, b) => b - a).slice(0, 3);
    return [service, prior.from === 'max' || prior.from === 'centroid' ? top[0]! : (top[0]! + (top[1] ?? 0) + (top[2] ?? 0)) / 3];
  }));
  const best = Math.max(...of.values());
  return candidates.map((candidate) => {
    const own = of.get(candidate.service) ?? 0;
    const factor = prior.form === 'power' ? (best > 0 ? Math.max(own / best, 0.05) : 1) ** prior.strength : Math.exp(prior.strength * (own - best));
    return { ...candidate, score: candidate.score * factor };
  });
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const candidates = new Map(TUNING.tasks.map((task) => [task.ask, candidatesOf(task.ask)]));

function outcomes(priors: readonly ServicePrior[]): Outcome[] {
  return TUNING.tasks.map((task) => {
    let ranked = candidates.get(task.ask)!;
    for (const prior of priors) ranked = withPrior(ranked, prior, queries.get(task.ask)!);
    // As served: equal scores by operationId, then id.
    const top = [...ranked].sort((a, b) => b.score - a.score || compare(a.operationId, b.operationId) || compare(a.id, b.id)).slice(0, 20).map(({ operationId }) => operationId);
    return { task, half: 'tuning', rank: top.findIndex((operationId) => task.expected.includes(operationId)) + 1, recall10: 0, top };
  });
}

const priors: (ServicePrior | ServicePrior[] | undefined)[] = [undefined];
for (const strength of [0.25, 0.5, 1]) priors.push({ from: 'max', form: 'power', strength }, { from: 'top3', form: 'power', strength });
for (const strength of [2, 3, 5, 7]) priors.push({ from: 'dense3', form: 'exp', strength }, { from: 'centroid', form: 'exp', strength });
for (const [c, t] of [[2, 0.5], [3, 0.5], [2, 0.25], [5, 0.25], [2, 1]] as const) priors.push([{ from: 'centroid', form: 'exp', strength: c }, { from: 'top3', form: 'power', strength: t }]);
for (const [c, d] of [[2, 2], [3, 3], [5, 2]] as const) priors.push([{ from: 'centroid', form: 'exp', strength: c }, { from: 'dense3', form: 'exp', strength: d }]);
const pct = (value: number) => `${(value * 100).toFixed(1)}%`.padStart(6);
const cells = (o: Outcome[]) => { const s = scoresOf(o); return `${pct(s.hit1)} ${pct(s.hit5)} ${s.mrr.toFixed(3)}`; };
console.log(`tuning half, ${TUNING.tasks.length} tasks, whole version: all hit@1 hit@5 MRR | intent | plain | tasks first now / no longer first`);
const served = outcomes([]);
for (const prior of priors) {
  const all = outcomes(prior ? [prior].flat() : []);
  const gained = all.filter((o, i) => o.rank === 1 && served[i]!.rank !== 1).length;
  const lost = all.filter((o, i) => o.rank !== 1 && served[i]!.rank === 1).length;
  const label = prior ? [prior].flat().map((one) => `${one.from} ${one.form} ${one.strength}`).join(' + ') : 'served (no prior)';
  console.log(`${label.padEnd(40)} ${cells(all)} | ${cells(all.filter((o) => o.task.phrasing === 'intent'))} | ${cells(all.filter((o) => o.task.phrasing === 'plain'))} | +${gained} -${lost}`);
}
const serviceIds = new Map(view.of('services').map((service) => [String(service['slug']), service.id]));
const oracle = TUNING.tasks.map((task): Outcome => {
  const top = index.rank({ query: task.ask, limit: 20, vector: queries.get(task.ask)!, serviceId: serviceIds.get(task.service)! })
    .ranked.map(({ operation }) => String(operation['operationId']));
  return { task, half: 'tuning', rank: top.findIndex((operationId) => task.expected.includes(operationId)) + 1, recall10: 0, top };
});
console.log(`${'right service given'.padEnd(40)} ${cells(oracle)} | ${cells(oracle.filter((o) => o.task.phrasing === 'intent'))} | ${cells(oracle.filter((o) => o.task.phrasing === 'plain'))}`);

// How often each estimate puts the task's own service first (the most a prior can know).
const slugOf = new Map(view.of('services').map((service) => [service.id, String(service['slug'])]));
const described = view.of('services');
const serviceTexts = await embedder.embed(described.map((service) => `${String(service['name'])}. ${String(service['description'] ?? '').slice(0, 300)}`));
const serviceVectors = new Map(described.map((service, i) => [service.id, serviceTexts[i]!]));
const argmax = (scores: Map<string, number>) => [...scores].sort((a, b) => b[1] - a[1])[0]?.[0];
const estimates: Record<string, (task: (typeof TUNING.tasks)[number]) => string | undefined> = {
  'top hit': (task) => argmax(new Map(index.rank({ query: task.ask, limit: 1, vector: queries.get(task.ask)!, fusion: FUSION }).ranked.map(({ operation }) => [serviceOf(operation), 1]))),
  'top3 fused': (task) => {
    const per = new Map<string, number[]>();
    for (const { operation, score } of index.rank({ query: task.ask, limit: 200, vector: queries.get(task.ask)!, fusion: FUSION }).ranked) {
      const service = serviceOf(operation);
      per.set(service, [...(per.get(service) ?? []), score]);
    }
    return argmax(new Map([...per].map(([service, values]) => [service, values.slice(0, 3).reduce((a, b) => a + b, 0)])));
  },
  'share of top 10': (task) => {
    const per = new Map<string, number>();
    for (const { operation, score } of index.rank({ query: task.ask, limit: 10, vector: queries.get(task.ask)!, fusion: FUSION }).ranked) {
      const service = serviceOf(operation);
      per.set(service, (per.get(service) ?? 0) + score);
    }
    return argmax(per);
  },
  'dense3': (task) => {
    const per = new Map<string, number[]>();
    for (const [id, vector] of table.vectors) { const service = serviceOfOp.get(id)!; const list = per.get(service); if (list) list.push(dot(vector, queries.get(task.ask)!)); else per.set(service, [dot(vector, queries.get(task.ask)!)]); }
    return argmax(new Map([...per].map(([service, values]) => [service, values.sort((a, b) => b - a).slice(0, 3).reduce((a, b) => a + b, 0)])));
  },
  'centroid': (task) => argmax(new Map([...centroids].map(([service, vector]) => [service, dot(vector, queries.get(task.ask)!)]))),
  'name+description': (task) => argmax(new Map([...serviceVectors].map(([service, vector]) => [service, dot(vector, queries.get(task.ask)!)]))),
};
console.log('\nthe task\'s own service first, tuning half: all | intent | plain');
for (const [label, estimate] of Object.entries(estimates)) {
  const right = TUNING.tasks.map((task) => ({ task, ok: slugOf.get(estimate(task) ?? '') === task.service }));
  const share = (list: typeof right) => `${((list.filter((r) => r.ok).length / list.length) * 100).toFixed(1)}%`;
  console.log(`${label.padEnd(22)} ${share(right)} | ${share(right.filter((r) => r.task.phrasing === 'intent'))} | ${share(right.filter((r) => r.task.phrasing === 'plain'))}`);
}
await embedder.close();
