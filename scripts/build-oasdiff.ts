// `npm run reference:build`: builds oasdiff, the outside reference of the changes tests
// (spec/features/changes/reference.spec.ts), from the Go module pinned in scripts/oasdiff/ into
// <repo>/.cache/bin/oasdiff (no-op when present) and prints its path. CI runs it next to db:build.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { OASDIFF } from './changes/reference.ts';

const moduleDir = path.resolve(import.meta.dirname, 'oasdiff');
if (!fs.existsSync(OASDIFF)) {
  // GOTOOLCHAIN=local: the installed Go, never a fetched toolchain; -mod=mod: go.sum pins the module.
  const env = { ...process.env, GOTOOLCHAIN: 'local', GOFLAGS: '-mod=mod' };
  const temp = `${OASDIFF}.${process.pid}`;
  try {
    console.error(`reference: building oasdiff (${/github\.com\/oasdiff\/oasdiff (\S+)/.exec(fs.readFileSync(path.join(moduleDir, 'go.mod'), 'utf8'))?.[1]}) into ${OASDIFF}`);
    fs.mkdirSync(path.dirname(OASDIFF), { recursive: true });
    execFileSync('go', ['build', '-trimpath', '-o', temp, 'github.com/oasdiff/oasdiff'], { cwd: moduleDir, env, stdio: ['ignore', 'inherit', 'inherit'] });
    fs.renameSync(temp, OASDIFF);
  } catch (error) {
    console.error(`cannot build oasdiff: ${(error as Error).message}`);
    process.exitCode = 1;
  } finally {
    fs.rmSync(temp, { force: true });
  }
}
if (!process.exitCode) console.log(OASDIFF);
