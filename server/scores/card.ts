// A service's score card: each operation's five subscores and the weighted total, the service's
// means, its hotspots (lowest operations first, with what to fix) and the operations no probe
// finds. Pure: made from the service's records, the version's index and the probes' answers.
import type { VersionIndex } from '../search/ranking.ts';
import { askProbes, confusability, findability, lookAlikes, probedOperations, type Asked, type EmbedQueries, type LookAlike } from './findability.ts';
import { operationParts } from './operation-records.ts';
import type { ServiceRecords } from './records.ts';
import { documentation, readiness, security, type LintFinding } from './subscores.ts';

/** How much each subscore counts in an operation's score; they add up to 1. */
export const WEIGHTS = { documentation: 0.3, security: 0.2, agentReadiness: 0.2, findability: 0.2, confusability: 0.1 } as const;
export type SubscoreName = keyof typeof WEIGHTS;
export const SUBSCORES = Object.keys(WEIGHTS) as SubscoreName[];
/** The subscores made from the probes. */
type ProbedSubscore = 'findability' | 'confusability';
/** An operation's subscores: findability and confusability only when it was probed (see PROBED_OPERATIONS). */
export type OperationSubscores = Record<Exclude<SubscoreName, ProbedSubscore>, number> & Partial<Record<ProbedSubscore, number>>;

/** Hotspots a card lists. */
export const HOTSPOTS = 10;

export interface OperationScore {
  id: string;
  operationId: string;
  method: string;
  path: string;
  title?: string;
  score: number;
  subscores: OperationSubscores;
  /** What would win back points, by subscore (absent: nothing to fix). */
  fixes: Partial<Record<SubscoreName, string[]>>;
  /** Probes as searched: their rank (0: not in the top 5). */
  probes: { kind: string; text: string; rank: number }[];
  lookAlikes: LookAlike[];
}

export interface ScoreCard {
  serviceId: string;
  score: number;
  subscores: Record<SubscoreName, number>;
  /** Probes ranking their operation first, and in the top 5, over the service's probes. */
  hit1: number;
  hit5: number;
  /** How the probes were ranked: with the vectors or the index alone. */
  ranking: 'hybrid' | 'lexical';
  /** How many of the service's operations were probed: all, or an even spread of PROBED_OPERATIONS of them. */
  probed: { operations: number; of: number };
  operations: OperationScore[];
  /** The lowest-scoring operations (ids), lowest first. */
  hotspots: string[];
  /** Operations none of whose probes finds them in the top 5. */
  unfound: string[];
  /** Look-alike pairs within the service. */
  lookAlikes: LookAlike[];
}

export interface CardInputs {
  records: ServiceRecords;
  /** The version's index, holding this service's operations (as stored, or the candidate's). */
  index: VersionIndex;
  embed?: EmbedQueries;
  /** Lint findings (OWASP codes are read by the security subscore); undefined: no report yet. */
  findings?: readonly LintFinding[];
  /** Stops the probes (a stopping process does not wait for a large service's card). */
  signal?: AbortSignal;
  /** The probes of the probed operations as asked of `index` already (the scorer's, for a card made again on one index); else they are asked. */
  asked?: ReadonlyMap<string, Asked[]>;
}

export async function scoreCard({ records, index, embed, findings, signal, asked: given }: CardInputs): Promise<ScoreCard> {
  const parts = operationParts(records);
  const probed = probedOperations(records.operations);
  const asked = given ?? await askProbes(index, probed, embed, signal);
  const owasp = Map.groupBy((findings ?? []).filter((finding) => finding.code.startsWith('owasp:') && finding.operation), (finding) => placeOf(finding.operation!.method, finding.operation!.path));
  const ids = new Set(records.operations.map((operation) => operation.id));
  const operations = parts.map((part): OperationScore => {
    const { operation, path } = part;
    const method = String(operation['method']);
    const pathText = String(path?.['path'] ?? '');
    const graded = {
      documentation: documentation(part, records.schemas),
      security: security(part, records.service, records.securitySchemes, owasp.get(placeOf(method, pathText)) ?? []),
      agentReadiness: readiness(part, records.schemas),
    };
    const fixes: OperationScore['fixes'] = mapValues(graded, (grade) => grade.fixes);
    const subscores: OperationScore['subscores'] = { documentation: graded.documentation.score, security: graded.security.score, agentReadiness: graded.agentReadiness.score };
    const probes = asked.get(operation.id);
    const alike = probes ? lookAlikes(operation, probes, index) : [];
    if (probes) {
      const found = findability(probes);
      Object.assign(subscores, { findability: found.score, confusability: confusability(probes) });
      if (found.hit5 < 1) fixes.findability = [`say in the summary or description the words people would ask with: ${probes.filter((probe) => probe.rank === 0).map((probe) => `"${probe.text}"`).join(', ')} does not find it`];
      if (alike.length > 0) fixes.confusability = alike.map((pair) => `tell it apart from ${String(index.operation(pair.other)['operationId'])}`);
    }
    return {
      id: operation.id, operationId: String(operation['operationId']), method, path: pathText,
      ...(typeof operation['summary'] === 'string' ? { title: operation['summary'] } : {}),
      score: total(subscores), subscores,
      fixes: Object.fromEntries(Object.entries(fixes).filter(([, list]) => list.length > 0)),
      probes: (probes ?? []).map(({ kind, text, rank }) => ({ kind, text, rank })),
      lookAlikes: alike,
    };
  });
  const all = [...asked.values()].flat();
  const subscores = Object.fromEntries(SUBSCORES.map((name) => [name, mean(operations.flatMap((operation) => operation.subscores[name] ?? []))])) as Record<SubscoreName, number>;
  return {
    serviceId: records.service.id,
    score: mean(operations.map((operation) => operation.score)),
    subscores,
    hit1: ratio(all.filter((probe) => probe.rank === 1).length, all.length),
    hit5: ratio(all.filter((probe) => probe.rank >= 1).length, all.length),
    ranking: embed !== undefined && index.vectors?.complete === true ? 'hybrid' : 'lexical',
    probed: { operations: probed.length, of: records.operations.length },
    operations,
    hotspots: [...operations].sort((a, b) => a.score - b.score || compare(a.operationId, b.operationId)).slice(0, HOTSPOTS).map((operation) => operation.id),
    unfound: operations.filter((operation) => operation.probes.length > 0 && operation.probes.every((probe) => probe.rank === 0)).map((operation) => operation.id),
    lookAlikes: operations.flatMap((operation) => operation.lookAlikes).filter((pair) => ids.has(pair.other)),
  };
}

/** Where a finding or an operation is: its method and path. */
function placeOf(method: string, path: string): string {
  return `${method.toLowerCase()} ${path}`;
}

/** The weighted total of the subscores had (an operation not probed has no findability or confusability: the others' weights stand for them), rounded. */
export function total(subscores: Partial<Record<SubscoreName, number>>): number {
  const had = SUBSCORES.filter((name) => subscores[name] !== undefined);
  const weight = had.reduce((sum, name) => sum + WEIGHTS[name], 0);
  return weight === 0 ? 0 : Math.round(had.reduce((sum, name) => sum + WEIGHTS[name] * subscores[name]!, 0) / weight);
}

function mapValues<T, U>(object: Record<string, T>, map: (value: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(object).map(([key, value]) => [key, map(value)]));
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : Math.round(values.reduce((sum, value) => sum + value, 0) / values.length);
}

function ratio(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 1000) / 1000;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

