// Project API keys as authentication sees them: looked up by secret, and remembered for a short,
// stated time (API_KEY_CACHE_MS) so that a request does not pay a database round trip for its key.
import { RememberedHits } from '../remembered-hits.ts';
import type { ApiKey } from '../tenancy/keys.ts';
import type { Tenancy } from '../tenancy/tenancy.ts';

/**
 * Only usable keys are remembered (server/remembered-hits.ts). An unknown or revoked key is looked
 * up on every request, so a refusal always costs the same lookup. The bound, documented in
 * docs/scaling.md: a key revoked through any process (the admin CLI is one) stops working on every
 * instance within `ttlMs`; 0 makes it the next request.
 */
export class ApiKeyLookup {
  readonly #tenancy: Tenancy;
  // Keyed by the secret itself: it lives only in this process's memory, as in the request that
  // brought it.
  readonly #usable: RememberedHits<ApiKey>;

  constructor(tenancy: Tenancy, ttlMs: number) {
    this.#tenancy = tenancy;
    this.#usable = new RememberedHits(ttlMs);
  }

  /** The usable (not revoked) key the secret belongs to, or null. */
  async usable(secret: string): Promise<ApiKey | null> {
    return await this.#usable.get(secret, async () => {
      const apiKey = await this.#tenancy.apiKeys.find(secret);
      return apiKey && !apiKey.revokedAt ? apiKey : null;
    });
  }
}
