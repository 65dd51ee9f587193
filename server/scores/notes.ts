// What hits say of their operation's score: its score and its look-alikes (operationId, method,
// path), for agents to prefer well-documented operations and check they have the one they mean.
// From the stored cards (never made on a read), kept in memory per card until it is made again:
// a large service's card weighs megabytes, and a search reads only when a card is newer.
import { LRUCache } from 'lru-cache';
import type { ScoreStore } from './store.ts';

export interface LookAlikeNote { operationId: string; method: string; path: string }
export interface ScoreNote { score: number; lookAlikes: LookAlikeNote[] }

type Hit = Record<string, unknown>;

/** Cards' notes kept at most. */
const CARDS_KEPT = 200;

export class ScoreNotes {
  readonly #store: ScoreStore;
  readonly #kept = new LRUCache<string, { computedAt: number; notes: Map<string, ScoreNote> }>({ max: CARDS_KEPT });

  constructor(store: ScoreStore) {
    this.#store = store;
  }

  /** The hits, each with `quality`: its operation's score and look-alikes, or null when its service has no card yet. */
  async annotate<T extends Hit>(versionId: string, hits: readonly T[]): Promise<Array<T & { quality: ScoreNote | null }>> {
    const serviceIds = [...new Set(hits.map((hit) => serviceOf(hit)).filter((id): id is string => id !== undefined))];
    const notes = new Map<string, ScoreNote>();
    for (const serviceId of serviceIds) for (const [id, note] of await this.#notesOf(versionId, serviceId)) notes.set(id, note);
    return hits.map((hit) => ({ ...hit, quality: notes.get(operationOf(hit) ?? '') ?? null }));
  }

  async #notesOf(versionId: string, serviceId: string): Promise<Map<string, ScoreNote>> {
    const key = `${versionId}:${serviceId}`;
    const computedAt = (await this.#store.computedAt(versionId, serviceId))?.getTime();
    if (computedAt === undefined) return new Map();
    const kept = this.#kept.get(key);
    if (kept?.computedAt === computedAt) return kept.notes;
    const card = (await this.#store.of(versionId, serviceId))?.card;
    if (!card) return new Map();
    const named = new Map(card.operations.map((operation) => [operation.id, { operationId: operation.operationId, method: operation.method, path: operation.path }]));
    const notes = new Map(card.operations.map((operation) => [operation.id, {
      score: operation.score,
      lookAlikes: operation.lookAlikes.flatMap((pair) => named.get(pair.other) ?? []),
    }]));
    this.#kept.set(key, { computedAt, notes });
    return notes;
  }
}

function serviceOf(hit: Hit): string | undefined {
  const id = (hit['service'] as { id?: unknown } | null | undefined)?.id;
  return typeof id === 'string' ? id : undefined;
}

function operationOf(hit: Hit): string | undefined {
  const id = (hit['operation'] as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' ? id : undefined;
}
