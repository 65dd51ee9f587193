// The production image installs `dependencies` only (npm ci --omit=dev, docker/Dockerfile): every
// package the service, the admin CLI or the push command (the package's bin) loads at run time must be listed there, or the image
// starts and then fails on the first request that needs it (the OpenAPI parser once did).
import { expect } from 'chai';
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { repoRoot } from '../../server/config.ts';

const RUNTIME_SOURCES = ['server', path.join('scripts', 'admin'), path.join('scripts', 'admin.ts'), path.join('scripts', 'push'), path.join('scripts', 'push.ts')];
// `import type` / `export type … from` are erased before running, so they need nothing then.
const TYPE_ONLY = /^\s*(?:import|export)\s+type\s[^;]*;/gm;
const IMPORTS = /\bfrom\s+'([^']+)'|\bimport\s*\(\s*'([^']+)'\s*\)|^\s*import\s+'([^']+)'/gm;

function sourceFiles(entry: string): string[] {
  const full = path.join(repoRoot, entry);
  if (fs.statSync(full).isFile()) return [full];
  return fs.readdirSync(full, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => path.join(full, file));
}

/** `@scope/name/sub/path.js` → `@scope/name`; `name/sub` → `name`; relative and built-in → null. */
function packageOf(specifier: string): string | null {
  if (specifier.startsWith('.') || specifier.startsWith('node:') || builtinModules.includes(specifier)) return null;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

function runtimeImports(): Map<string, string> {
  const packages = new Map<string, string>();
  for (const file of RUNTIME_SOURCES.flatMap(sourceFiles)) {
    for (const match of fs.readFileSync(file, 'utf8').replace(TYPE_ONLY, '').matchAll(IMPORTS)) {
      const name = packageOf(match[1] ?? match[2] ?? match[3]!);
      if (name && !packages.has(name)) packages.set(name, path.relative(repoRoot, file));
    }
  }
  return packages;
}

describe('Runtime dependencies', () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };

  it('lists every package the service and the admin CLI import under dependencies, not devDependencies', () => {
    const imports = runtimeImports();
    expect(imports.size, 'no imports found: the scan is broken').to.be.above(10);
    const missing = [...imports].filter(([name]) => !(name in manifest.dependencies)).map(([name, file]) => `${name} (${file})`);
    expect(missing).to.deep.equal([]);
  });

  it('lists no package under both, where npm would install only one of the two ranges', () => {
    const both = Object.keys(manifest.dependencies).filter((name) => name in manifest.devDependencies);
    expect(both).to.deep.equal([]);
  });
});
