// Which module may import which, where issue 18 found layers reaching into each other: search
// read the import's private marker, export and import imported each other, and imports kept a
// lock registry of their own past the record store's.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../server/config.ts';

const SERVER = path.join(repoRoot, 'server');

/** The server modules (relative to server/) that `file` imports, type-only imports included. */
function importsOf(file: string): string[] {
  const source = fs.readFileSync(path.join(SERVER, file), 'utf8');
  return [...source.matchAll(/\bfrom\s+'(\.[^']+)'/g)].map((match) => path.relative(SERVER, path.resolve(path.dirname(path.join(SERVER, file)), match[1]!)));
}

function filesUnder(folder: string): string[] {
  return (fs.readdirSync(path.join(SERVER, folder), { recursive: true, encoding: 'utf8' }) as string[])
    .filter((file) => file.endsWith('.ts')).map((file) => path.join(folder, file));
}

describe('unit: layers', () => {
  it('search reads records through the store and ownership/, never from descriptions/', () => {
    for (const file of filesUnder('search')) {
      expect(importsOf(file).filter((target) => target.startsWith('descriptions/')), file).to.deep.equal([]);
    }
  });

  it('export does not import the import (sync.ts), nor the import the export', () => {
    expect(importsOf('descriptions/export.ts')).to.not.include('descriptions/sync.ts');
    expect(importsOf('descriptions/sync.ts')).to.not.include('descriptions/export.ts');
  });

  it('record locks are the record store\'s: outside store/ only the observations (not records) keep their own', () => {
    const holders = [...filesUnder('.')].filter((file) => !file.startsWith('store/') && importsOf(file).includes('store/locks.ts'));
    expect(holders).to.deep.equal(['insights/observations.ts']);
  });
});
