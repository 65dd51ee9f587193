// Which module may import which. The house stands in floors: no folder of server/ imports one
// that imports it back, no file is in an import cycle, and the vocabulary of routes (routes/)
// imports nothing above it. Layers once reached into each other: search
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

/** Every server file (relative to server/) with the server files it imports; generated types are a leaf of their own. */
function importGraph(): Map<string, string[]> {
  return new Map(filesUnder('.').map((file) => [file, importsOf(file).filter((target) => target.endsWith('.ts'))]));
}

/** The room a file stands in: its folder under server/, or the file itself at the top. */
function roomOf(file: string): string {
  if (file.startsWith('schemas/generated/')) return 'schemas/generated';
  return file.includes('/') ? file.split('/')[0]! : file;
}

/** The strongly connected components of more than one node (Tarjan): the import cycles. */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (stack.includes(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** Every .ts file under a top-level folder of the repository, relative to the repository. */
function repoFilesUnder(folder: string): string[] {
  return (fs.readdirSync(path.join(repoRoot, folder), { recursive: true, encoding: 'utf8' }) as string[])
    .filter((file) => file.endsWith('.ts')).map((file) => path.join(folder, file));
}

/** The files under `from` (relative to the repository) that import, statically or dynamically, a file under `to`. */
function importersAcross(from: string, to: string): string[] {
  return repoFilesUnder(from).filter((file) => {
    const source = fs.readFileSync(path.join(repoRoot, file), 'utf8');
    const targets = [...source.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^import\s+)'(\.[^']+)'/gm)].map((match) => path.relative(repoRoot, path.resolve(path.dirname(path.join(repoRoot, file)), match[1]!)));
    return targets.some((target) => target.split(path.sep)[0] === to);
  }).sort();
}

/**
 * The specs that import scripts/, and no others: tests of a benchmark's own parts (its memory
 * sampler, search scoring, tasks and route check) and specs running on a sample the checks a tool
 * runs on a whole corpus (fidelity, re-import, round trip). Each check is written once, beside its
 * tool; a copy here would be a second definition free to drift (docs/architecture.md).
 */
const SPECS_IMPORTING_SCRIPTS = [
  'spec/features/descriptions/fidelity.spec.ts',
  'spec/features/descriptions/reimport.spec.ts',
  'spec/features/descriptions/round-trip.spec.ts',
  'spec/features/search/route-index.spec.ts',
  'spec/unit/bench-memory.spec.ts',
  'spec/unit/search-accuracy.spec.ts',
  'spec/unit/search-tasks.spec.ts',
];

describe('unit: layers', () => {
  it('has no import cycle between files', () => {
    expect(cycles(importGraph())).to.deep.equal([]);
  });

  it('has no import cycle between the folders of server/: each stands above what it imports', () => {
    const rooms = new Map<string, Set<string>>();
    for (const [file, targets] of importGraph()) {
      const from = rooms.get(roomOf(file)) ?? new Set<string>();
      for (const target of targets) if (roomOf(target) !== roomOf(file)) from.add(roomOf(target));
      rooms.set(roomOf(file), from);
    }
    expect(cycles(new Map([...rooms].map(([room, targets]) => [room, [...targets]])))).to.deep.equal([]);
  });

  it('keeps the vocabulary of routes low: routes/ imports only what stands below every room', () => {
    const below = ['routes', 'auth', 'errors.ts', 'schemas', 'tenancy', 'json'];
    for (const file of filesUnder('routes')) {
      expect(importsOf(file).map(roomOf).filter((room) => !below.includes(room)), file).to.deep.equal([]);
    }
  });

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

  it('scripts/ imports nothing from spec/: tools for people stand on the server, not on the tests', () => {
    expect(importersAcross('scripts', 'spec')).to.deep.equal([]);
  });

  it('spec/ imports from scripts/ only in the files listed, and a file that stops leaves the list', () => {
    expect(importersAcross('spec', 'scripts')).to.deep.equal(SPECS_IMPORTING_SCRIPTS);
  });
});
