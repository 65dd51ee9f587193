// Records the benchmark seeds and sends: Paths with the fields real catalogs fill in (a
// markdown description, a kvStorage of vendor extensions with nested values). Keys need no
// escaping (no `$`, no `.`), so the bare-db server can store the body as it comes, as the driver
// alone could on FerretDB too. Deterministic for a given seed, so runs compare.
import { newId } from '../../server/ids.ts';

const RESOURCES = ['users', 'orders', 'invoices', 'products', 'carts', 'payments', 'shipments', 'reviews', 'coupons', 'stores', 'teams', 'webhooks'];
const SUBRESOURCES = ['items', 'events', 'notes', 'attachments', 'history', 'members', 'settings', 'refunds'];
const TEAMS = ['identity', 'commerce', 'billing', 'logistics', 'platform'];
const VERBS = ['Lists', 'Reads', 'Manages', 'Tracks', 'Updates'];

/** A small seeded PRNG (mulberry32): the same seed gives the same records. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

/** `count` Path bodies (no id, no versionId: the service assigns them), over a few services. */
export function pathBodies(count: number, seed = 1): Record<string, unknown>[] {
  const random = prng(seed);
  const services = Array.from({ length: 5 }, () => newId('svc_'));
  return Array.from({ length: count }, (_, i) => {
    const resource = pick(random, RESOURCES);
    const sub = pick(random, SUBRESOURCES);
    const team = pick(random, TEAMS);
    const singular = resource.replace(/s$/, '');
    const path = random() < 0.4 ? `/${resource}` : random() < 0.5 ? `/${resource}/{${singular}Id}` : `/${resource}/{${singular}Id}/${sub}`;
    return {
      serviceId: pick(random, services),
      // The index segment keeps (serviceId, path), the Path's natural key, unique.
      path: `/v${1 + (i % 3)}/r${i}${path}`,
      summary: `${pick(random, VERBS)} ${resource} ${sub}`,
      description: `${pick(random, VERBS)} the **${sub}** of one of the ${resource}.\n\n` +
        `Requires the \`${resource}:read\` scope. Results are paginated; see [pagination](https://docs.example/pagination). ` +
        `Owned by the ${team} team; deprecated fields are listed in the changelog.`,
      kvStorage: {
        'x-owner': `${team}-team`,
        'x-tags': [resource, sub, i % 2 === 0 ? 'public' : 'internal'],
        'x-rate-limit': { requests: 100 * (1 + (i % 5)), per: 'minute' },
        'x-docs': { url: `https://docs.example/${resource}/${sub}`, anchors: ['request', 'responses'] },
        'x-stability': pick(random, ['stable', 'beta', 'alpha']),
      },
    };
  });
}

/**
 * Bodies for the create scenario: the same Path each time but for its path, which must differ
 * because (serviceId, path) is the Path's natural key. The run's own prefix keeps the paths
 * apart from the seeded ones and from another run's.
 */
export function createBodies(): () => Record<string, unknown> {
  const template = pathBodies(1, 42)[0]!;
  const run = newId('');
  let next = 0;
  return () => ({ ...template, path: `/created/${run}/${next++}` });
}

/** The body of the update scenario: one field. */
export const PATCH_BODY = { summary: 'Manages users items (edited by the benchmark)' };
