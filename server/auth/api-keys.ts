// Project API keys as authentication sees them: looked up by secret, and remembered for a short,
// stated time (API_KEY_CACHE_MS) so that a request does not pay a database round trip for its key.
import { LRUCache } from 'lru-cache';
import type { ApiKey, Tenancy } from '../tenancy/tenancy.ts';

/** Keys remembered at most: far more than live keys, so only stale ones are ever evicted. */
const MAX_REMEMBERED = 100_000;

/**
 * Only usable keys are remembered. An unknown or revoked key is looked up on every request, so a
 * refusal always costs the same lookup (its timing tells nothing) and a guesser gains nothing from
 * the cache. The bound, documented in docs/scaling.md: a key revoked through any process (the
 * admin CLI is one) stops working on every instance within `ttlMs`; 0 makes it the next request.
 */
export class ApiKeyLookup {
  readonly #tenancy: Tenancy;
  // Keyed by the secret itself: it lives only in this process's memory, as in the request that
  // brought it.
  readonly #usable: LRUCache<string, ApiKey> | undefined;

  constructor(tenancy: Tenancy, ttlMs: number) {
    this.#tenancy = tenancy;
    this.#usable = ttlMs > 0 ? new LRUCache({ max: MAX_REMEMBERED, ttl: ttlMs, ttlAutopurge: false }) : undefined;
  }

  /** The usable (not revoked) key the secret belongs to, or null. */
  async usable(secret: string): Promise<ApiKey | null> {
    const remembered = this.#usable?.get(secret);
    if (remembered) return remembered;
    const apiKey = await this.#tenancy.findApiKey(secret);
    if (!apiKey || apiKey.revokedAt) return null;
    this.#usable?.set(secret, apiKey);
    return apiKey;
  }
}
