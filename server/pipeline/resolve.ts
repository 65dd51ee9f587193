// Where the two route families meet: family V names a version by id, family P by project
// (id or slug), type and slug. Both resolve here to a version and its project; after this
// step every request runs the same code.
import { RememberedHits } from '../remembered-hits.ts';
import type { Tenancy } from '../tenancy/tenancy.ts';
import type { ResolvedVersion, VersionAddress } from '../routes/route.ts';

/**
 * Resolves addresses, caching what it found for `ttlMs` (VERSION_CACHE_MS); only hits are
 * cached (server/remembered-hits.ts). Versions are never renamed or moved, but they can be deleted: a delete made here
 * forgets the version at once; another instance may serve a cached hit for up to `ttlMs`, which
 * is why a delete purges the version's records again once that lifetime has passed
 * (server/versions/manage.ts). The bound, documented in docs/scaling.md: a version deleted
 * through any instance stops resolving on every instance within `ttlMs`; 0 makes it the next request.
 */
export class VersionResolver {
  readonly #tenancy: Tenancy;
  readonly #cache: RememberedHits<ResolvedVersion>;

  constructor(tenancy: Tenancy, ttlMs: number) {
    this.#tenancy = tenancy;
    this.#cache = new RememberedHits(ttlMs);
  }

  /** The version, or null when it does not exist. */
  async resolve(address: VersionAddress): Promise<ResolvedVersion | null> {
    return (await this.find(address)).version;
  }

  /**
   * As resolve, and on a miss the project the address names when it exists (family P; a version
   * id names none): what its lookups found anyway, so that telling why costs no further lookup.
   */
  async find(address: VersionAddress): Promise<{ version: ResolvedVersion | null; projectId: string | null }> {
    let projectId: string | null = null;
    const version = await this.#cache.get(cacheKey(address), async () => {
      const found = await this.#lookup(address);
      projectId = found.projectId;
      return found.version;
    });
    return { version, projectId: version?.projectId ?? projectId };
  }

  /** Whether `resolve` would answer from the cache. */
  isCached(address: VersionAddress): boolean {
    return this.#cache.has(cacheKey(address));
  }

  /**
   * The lookups an uncached `resolve` makes, result ignored: a refusal of a cached version then
   * takes as long as that of an unknown one, so response times do not tell them apart.
   */
  async lookUpAsIfUncached(address: VersionAddress): Promise<void> {
    await this.#lookup(address);
  }

  /** The project id a project reference (id or slug) names, or null. Projects are not cached. */
  async project(ref: string): Promise<string | null> {
    return (await this.#tenancy.projects.find(ref))?.id ?? null;
  }

  /** Drops every cached address of a version (it was deleted by this process). */
  forget(versionId: string): void {
    this.#cache.forget((version) => version.versionId === versionId);
  }

  async #lookup(address: VersionAddress): Promise<{ version: ResolvedVersion | null; projectId: string | null }> {
    if (address.family === 'V') {
      const version = await this.#tenancy.versions.find(address.versionId);
      return { version: version && { versionId: version.id, projectId: version.projectId }, projectId: null };
    }
    const project = await this.#tenancy.projects.find(address.projectRef);
    // An unknown project still costs the version lookup, so its time matches a known one's.
    const version = await this.#tenancy.versions.findByAddress(project?.id ?? '', address.versionType, address.versionSlug);
    if (!project) return { version: null, projectId: null };
    return { version: version && { versionId: version.id, projectId: project.id }, projectId: project.id };
  }
}

function cacheKey(address: VersionAddress): string {
  return address.family === 'V' ? address.versionId : `${address.projectRef}\u0000${address.versionType}\u0000${address.versionSlug}`;
}
