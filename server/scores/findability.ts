// Findability and confusability: each operation is asked for with probes made of its own texts
// (its summary, its description's first sentence, its operationId in words, its first tag with
// its method's verb), searched across the whole version with the ranking users get
// (search/ranking.ts, fused with the vectors when the version's are all had). Findability says
// how often the operation comes first and in the top 5; a probe that ranks another operation first
// while this one is in the top 5 makes the two look-alikes, listed with what tells them apart.
import { Slices } from '../descriptions/slices.ts';
import type { VersionIndex } from '../search/ranking.ts';
import { operationTitle } from '../search/title.ts';
import { ACTION_VERBS, termsOf, wordsOf } from '../search/text.ts';
import type { CatalogRecord } from '../store/records.ts';

export type ProbeKind = 'summary' | 'description' | 'operationId' | 'tag';
export interface Probe { kind: ProbeKind; text: string }
/** A probe as searched: the rank of its operation (0: not in the top 5) and the operation ranked first. */
export interface Asked extends Probe { rank: number; first: string | undefined }

/** A probe's words at most: people ask in a few words, and a long sentence costs the index a fuzzy match per word. */
export const PROBE_WORDS = 12;
/** How many hits a probe looks at. */
export const TOP = 5;
/**
 * How many of a service's operations are probed at most. A probe's search visits every operation
 * of the version its words match, so probing all of a service costs its operations times the
 * version's: Graph beta's 22,361 operations would take over an hour of CPU and GitHub's probes
 * 150 s of embeddings. Past this, this many of them evenly spread in the service's order (so the
 * stored card and the dry run's probe the same ones) stand for the rest.
 */
export const PROBED_OPERATIONS = 300;

/** The operations probed: all of them up to `most`, else `most` of them evenly spread (the k-th of `most` at ⌊k × operations ÷ most⌋). */
export function probedOperations<T>(operations: readonly T[], most = PROBED_OPERATIONS): T[] {
  if (operations.length <= most) return [...operations];
  return Array.from({ length: most }, (_, k) => operations[Math.floor((k * operations.length) / most)]!);
}

/** Findability's shares: coming first, and coming in the top 5. */
export const FINDABILITY = { first: 0.5, top: 0.5 } as const;

const METHOD_VERB: Readonly<Record<string, string>> = { get: ACTION_VERBS.read[0], post: ACTION_VERBS.create[0], put: ACTION_VERBS.update[5], patch: ACTION_VERBS.update[0], delete: ACTION_VERBS.delete[0] };

/** An operation's probes, distinct texts only (a summary that is its description's first sentence is one probe). */
export function probesOf(operation: CatalogRecord): Probe[] {
  const probes: Probe[] = [];
  const add = (kind: ProbeKind, text: string | undefined) => {
    const trimmed = text?.trim().split(/\s+/).slice(0, PROBE_WORDS).join(' ');
    if (!trimmed || termsOf(trimmed).length === 0) return;
    if (probes.some((probe) => probe.text.toLowerCase() === trimmed.toLowerCase())) return;
    probes.push({ kind, text: trimmed });
  };
  add('summary', typeof operation['summary'] === 'string' ? operationTitle({ summary: operation['summary'] }) : undefined);
  add('description', operationTitle({ description: operation['description'] }));
  add('operationId', wordsOf(String(operation['operationId'] ?? '')).join(' '));
  const tag = Array.isArray(operation['tags']) ? operation['tags'].find((value) => typeof value === 'string') : undefined;
  if (typeof tag === 'string') add('tag', `${METHOD_VERB[String(operation['method'])] ?? ''} ${wordsOf(tag).join(' ')}`);
  return probes;
}

/** A probe's vector, when the version's vectors are had (the texts embedded as queries, in batches). */
export type EmbedQueries = (texts: readonly string[]) => Promise<Float32Array[]>;

/**
 * Each operation's probes as searched, by operation id. A text several operations share (their
 * tag's probe, a summary repeated) is embedded and searched once.
 */
export async function askProbes(index: VersionIndex, operations: readonly CatalogRecord[], embed?: EmbedQueries, signal?: AbortSignal): Promise<Map<string, Asked[]>> {
  const probes = operations.flatMap((operation) => probesOf(operation).map((probe) => ({ operation: operation.id, probe })));
  const texts = [...new Set(probes.map(({ probe }) => probe.text))];
  const hybrid = embed !== undefined && index.vectors?.complete === true;
  const vectors = hybrid ? await embed(texts) : [];
  const ranked = new Map<string, string[]>();
  // Other work in between, by the time run: one probe of a large version takes tens of milliseconds.
  const slices = new Slices();
  for (const [at, text] of texts.entries()) {
    const vector = vectors[at];
    const { ranked: found } = index.rank({ query: text, limit: TOP, ...(vector ? { vector } : {}) });
    ranked.set(text, found.map(({ operation }) => operation.id));
    await slices.pause();
    signal?.throwIfAborted();
  }
  const asked = new Map<string, Asked[]>(operations.map((operation) => [operation.id, []]));
  for (const { operation, probe } of probes) {
    const ids = ranked.get(probe.text)!;
    asked.get(operation)!.push({ ...probe, rank: ids.indexOf(operation) + 1, first: ids[0] });
  }
  return asked;
}

export interface Findability { score: number; hit1: number; hit5: number; probes: Asked[] }

export function findability(probes: readonly Asked[]): Findability {
  if (probes.length === 0) return { score: 0, hit1: 0, hit5: 0, probes: [] };
  const hit1 = probes.filter((probe) => probe.rank === 1).length / probes.length;
  const hit5 = probes.filter((probe) => probe.rank >= 1).length / probes.length;
  return { score: Math.round(100 * (FINDABILITY.first * hit1 + FINDABILITY.top * hit5)), hit1, hit5, probes: [...probes] };
}

export interface Apart { own: string[]; other: string[] }

/** Two operations a probe for one ranked the other first, with the probes and what tells them apart. */
export interface LookAlike {
  operation: string;
  other: string;
  /** The probes of `operation` that ranked `other` first. */
  probes: { kind: ProbeKind; text: string; rank: number }[];
  /** The cosine of their vectors, when the version's are had. */
  cosine?: number;
  /** Words, path segments (and method) and parameters one has and the other lacks: `own`, this operation's; `other`, the look-alike's. */
  apart: { words: Apart; path: Apart; parameters: Apart };
}

/**
 * Confusability: the share of an operation's probes that put a look-alike first while it is in
 * the top 5, taken off 100. The tag probe names a group, where many operations rightly rank
 * alike: it counts for findability, not here.
 */
export function confusability(probes: readonly Asked[]): number {
  const named = probes.filter((probe) => probe.kind !== 'tag');
  if (named.length === 0) return 100;
  const confused = named.filter((probe) => probe.rank > 1).length;
  return Math.round(100 * (1 - confused / named.length));
}

/** The look-alikes of an operation, from its probes, with what tells them apart. */
export function lookAlikes(operation: CatalogRecord, probes: readonly Asked[], index: VersionIndex): LookAlike[] {
  const others = new Map<string, Asked[]>();
  for (const probe of probes) {
    if (probe.kind !== 'tag' && probe.rank > 1 && probe.first && probe.first !== operation.id) others.set(probe.first, [...others.get(probe.first) ?? [], probe]);
  }
  return [...others].map(([id, won]) => {
    const other = index.operation(id);
    const vectors = index.vectors;
    const [a, b] = [vectors?.vectors.get(operation.id), vectors?.vectors.get(id)];
    return {
      operation: operation.id, other: id,
      probes: won.map(({ kind, text, rank }) => ({ kind, text, rank })),
      ...(a && b ? { cosine: Math.round(dot(a, b) * 1000) / 1000 } : {}),
      apart: apartOf(operation, other, index),
    };
  });
}

function apartOf(a: CatalogRecord, b: CatalogRecord, index: VersionIndex): LookAlike['apart'] {
  const words = (operation: CatalogRecord) => new Set(wordsOf(`${operationTitle({ summary: operation['summary'], description: operation['description'] }) ?? ''} ${String(operation['operationId'] ?? '')}`).filter((word) => termsOf(word).length > 0));
  const path = (operation: CatalogRecord) => new Set(String(index.view.byId('paths', operation['pathId'])?.['path'] ?? '').split('/').filter(Boolean).concat(String(operation['method']).toUpperCase()));
  const parameters = (operation: CatalogRecord) => new Set([...index.view.ownedBy('parameters', operation.id), ...index.view.ownedBy('parameters', String(operation['pathId']))].map((parameter) => String(parameter['name'])));
  const both = (of: (operation: CatalogRecord) => Set<string>): Apart => {
    const [x, y] = [of(a), of(b)];
    return { own: [...x].filter((value) => !y.has(value)), other: [...y].filter((value) => !x.has(value)) };
  };
  return { words: both(words), path: both(path), parameters: both(parameters) };
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}
