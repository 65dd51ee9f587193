// What a lookup found, remembered for a short, stated time (API keys: API_KEY_CACHE_MS; version
// addresses: VERSION_CACHE_MS), in bounded memory. Only hits: a miss may stop being one the
// moment the thing is created (in this process or another), and a refusal then always costs the
// same lookup, so its timing tells nothing and a guesser gains nothing from the memory.
import { LRUCache } from 'lru-cache';

/** Entries at most: far more than are in use at once, so only stale ones are ever evicted. */
const MAX_REMEMBERED = 100_000;

export class RememberedHits<T extends object> {
  readonly #hits: LRUCache<string, T> | undefined;

  /** `ttlMs` 0: nothing is remembered, every lookup is made. */
  constructor(ttlMs: number) {
    this.#hits = ttlMs > 0 ? new LRUCache({ max: MAX_REMEMBERED, ttl: ttlMs, ttlAutopurge: false }) : undefined;
  }

  /** The remembered hit, else what `lookUp` finds (remembered when found). */
  async get(key: string, lookUp: () => Promise<T | null>): Promise<T | null> {
    const remembered = this.#hits?.get(key);
    if (remembered) return remembered;
    const found = await lookUp();
    if (found) this.#hits?.set(key, found);
    return found;
  }

  /** Whether `get` would answer without a lookup. */
  has(key: string): boolean {
    return this.#hits?.has(key) ?? false;
  }

  /** Forgets every hit `gone` says is gone. */
  forget(gone: (hit: T) => boolean): void {
    if (!this.#hits) return;
    for (const [key, hit] of this.#hits.entries()) if (gone(hit)) this.#hits.delete(key);
  }
}
