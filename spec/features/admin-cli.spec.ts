// The admin CLI end to end: the real script as a child process against a FerretDB of its own,
// every command in both output modes, exit codes, and the errors people will meet.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import { verifyToken } from '../../server/auth/tokens.ts';
import { provisionDatabase, type DatabaseServer } from '../../server/database/provision.ts';

const REPO = path.resolve(import.meta.dirname, '..', '..');
const ADMIN = path.join(REPO, 'scripts', 'admin.ts');
const JWT_SECRET = randomBytes(36).toString('base64'); // 48 characters
// Nothing listens there: commands that must not touch the database get this one.
const UNREACHABLE_URI = 'mongodb://127.0.0.1:1/admin_cli_never';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const PROJECT_ID = /^proj_[0-9A-Z]{26}$/;
const VERSION_ID = /^ver_[0-9A-Z]{26}$/;
const KEY_ID = /^key_[0-9A-Z]{26}$/;
const DAY = 86_400;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

type Json = Record<string, unknown>;

describe('admin CLI', function () {
  this.timeout(30_000);
  let server: DatabaseServer;
  let dataDir: string;
  let uri: string;

  before(async function () {
    this.timeout(15 * 60_000); // builds FerretDB first when it is not in .cache yet
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'catalog-admin-cli-'));
    server = await provisionDatabase({ engine: 'ferretdb', port: 0, dataDir, cacheDir: path.join(REPO, '.cache'), log: () => {} });
    uri = `${server.uri}admin_cli_${randomBytes(6).toString('hex')}`;
    // One run first, so the collections and indexes exist before commands run in parallel.
    await json('project', 'list');
  });

  after(async function () {
    this.timeout(60_000);
    await server?.stop();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  function admin(args: readonly string[], env: Record<string, string | undefined> = {}): Promise<Run> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [ADMIN, ...args], {
        cwd: REPO,
        env: { ...process.env, MONGODB_URI: uri, JWT_SECRET, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.once('error', reject);
      child.once('close', (code) => resolve({ code, stdout, stderr }));
    });
  }

  /** Runs with --json and expects success: exactly one JSON object on stdout, nothing on stderr. */
  async function json(...args: string[]): Promise<Json> {
    const run = await admin([...args, '--json']);
    expect(run, `admin ${args.join(' ')}`).to.include({ code: 0, stderr: '' });
    expect(run.stdout.endsWith('\n') && run.stdout.indexOf('\n') === run.stdout.length - 1, 'one line').to.equal(true);
    const value: unknown = JSON.parse(run.stdout);
    expect(value).to.be.an('object').and.not.be.an('array');
    return value as Json;
  }

  /** Runs for people and expects success. */
  async function human(...args: string[]): Promise<string> {
    const run = await admin(args);
    expect(run, `admin ${args.join(' ')}`).to.include({ code: 0, stderr: '' });
    return run.stdout;
  }

  /** Expects the given exit code, an empty stdout and one `error: ` line matching `message`. */
  function expectFailure(run: Run, code: number, message: RegExp): void {
    expect(run.code, run.stderr).to.equal(code);
    expect(run.stdout).to.equal('');
    expect(run.stderr).to.match(/^error: [^\n]+\n$/);
    expect(run.stderr).to.match(message);
  }

  /** A slug nobody else in this run uses. */
  const unique = (name: string) => `${name}-${randomBytes(4).toString('hex')}`;

  /** Column start offsets of an aligned table's header, to check that rows line up. */
  function expectAligned(table: string, headers: string[]): string[] {
    const lines = table.trimEnd().split('\n');
    const starts = headers.map((header) => lines[0]!.indexOf(header));
    expect(starts.every((start, i) => start >= 0 && (i === 0 || start > starts[i - 1]!)), lines[0]).to.equal(true);
    for (const line of lines.slice(1)) {
      for (const start of starts.slice(1)) expect(line[start - 1], `column at ${start} in ${line}`).to.equal(' ');
    }
    return lines;
  }

  describe('usage', function () {
    it('prints help for the program, a group and each command, exit 0', async function () {
      const [overview, group, create, revoke] = await Promise.all([
        admin(['--help'], { MONGODB_URI: UNREACHABLE_URI }),
        admin(['key', '--help'], { MONGODB_URI: UNREACHABLE_URI }),
        admin(['token', 'create', '--help'], { MONGODB_URI: UNREACHABLE_URI }),
        admin(['key', 'revoke', '-h'], { MONGODB_URI: UNREACHABLE_URI }),
      ]);
      for (const run of [overview, group, create, revoke]) expect(run).to.include({ code: 0, stderr: '' });
      for (const command of ['project create', 'project list', 'version create', 'version list', 'key create', 'key list', 'key revoke', 'token create']) {
        expect(overview.stdout).to.include(command);
      }
      expect(overview.stdout).to.match(/exit codes/i);
      expect(group.stdout).to.include('key revoke').and.not.include('project create');
      for (const option of ['--subject', '--project', '--all-projects', '--read-only', '--expires-in', '--json']) {
        expect(create.stdout).to.include(option);
      }
      expect(revoke.stdout).to.match(/Usage: admin key revoke ID/);
    });

    it('names only ways to run it that work with the Node a machine already has (help and docs/admin-cli.md)', async function () {
      this.timeout(60_000);
      const help = (await admin(['--help'], { MONGODB_URI: UNREACHABLE_URI })).stdout.replaceAll('\n', ' ');
      const fromHelp = [...help.matchAll(/`([^`]+?) …`/g)].map((match) => match[1]!);
      const docs = await fs.readFile(path.join(REPO, 'docs', 'admin-cli.md'), 'utf8');
      const block = /```sh\n([^`]*)```/.exec(docs)![1]!;
      const fromDocs = block.split('\n').filter((line) => line !== '' && !line.startsWith('#')).map((line) => line.replace(/ <group>.*$/, ''));
      expect(fromHelp).to.have.length(2);
      expect(fromDocs).to.have.length(2);
      const forms = [...new Set([...fromHelp, ...fromDocs])];
      // A bare `node` is the machine's own, which may refuse `.ts` (Node 20 does); npm and npx put the project's first.
      expect(forms.filter((form) => /^node\b/.test(form)), 'forms that run the machine\'s node').to.deep.equal([]);
      const machinePath = (process.env['PATH'] ?? '').split(path.delimiter).filter((dir) => !dir.includes('node_modules')).join(path.delimiter);
      for (const form of forms) {
        const run = await new Promise<Run>((resolve, reject) => {
          const child = spawn('sh', ['-c', `${form} --help`], { cwd: REPO, env: { ...process.env, PATH: machinePath, MONGODB_URI: UNREACHABLE_URI }, stdio: ['ignore', 'pipe', 'pipe'] });
          let stdout = '';
          let stderr = '';
          child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
          child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
          child.once('error', reject);
          child.once('close', (code) => resolve({ code, stdout, stderr }));
        });
        expect(run.code, `${form} --help: ${run.stderr}`).to.equal(0);
        expect(run.stdout, form).to.match(/^Usage: admin <group>/);
      }
    });

    // Run against an unreachable database: a usage error is found before any connection.
    const cases: [string, string[], RegExp][] = [
      ['no command', [], /missing command/],
      ['an unknown command', ['frobnicate'], /unknown command "frobnicate"/],
      ['an unknown subcommand', ['project', 'drop'], /unknown command "project drop"/],
      ['an unknown option', ['project', 'create', '--slug', 'a', '--colour', 'red'], /unknown option --colour for "project create"/],
      ['an unexpected argument', ['project', 'list', 'everything'], /unexpected argument "everything"/],
      ['a missing --slug', ['project', 'create'], /missing --slug/],
      ['an option without its value', ['project', 'create', '--slug'], /--slug needs a value/],
      ['a repeated option', ['project', 'create', '--slug', 'a', '--slug', 'b'], /--slug given more than once/],
      ['a bad project slug', ['project', 'create', '--slug', 'Not A Slug'], /invalid --slug "Not A Slug": must match pattern/],
      ['a too long project slug', ['project', 'create', '--slug', 'a'.repeat(101)], /invalid --slug "a+": must NOT have more than 100 characters/],
      ['an empty name', ['project', 'create', '--slug', 'a', '--name', ' '], /--name must not be empty/],
      ['a bad version type', ['version', 'create', '--project', 'shop', '--type', 'tag', '--slug', 'v1'], /invalid --type "tag".*branch.*environment/],
      ['a missing --type', ['version', 'create', '--project', 'shop', '--slug', 'v1'], /missing --type/],
      ['an empty version slug', ['version', 'create', '--project', 'shop', '--type', 'branch', '--slug='], /invalid --slug ""/],
      ['a missing --project', ['version', 'list'], /missing --project/],
      ['a missing key id', ['key', 'revoke'], /missing ID/],
      ['a malformed key id', ['key', 'revoke', 'nope'], /invalid key id "nope"/],
      ['a token for --project and --all-projects', ['token', 'create', '--subject', 'a', '--project', 'shop', '--all-projects'], /either --project or --all-projects, not both/],
      ['a token for no project', ['token', 'create', '--subject', 'a'], /missing --project REF \(repeatable\) or --all-projects/],
      ['a token without subject', ['token', 'create', '--all-projects'], /missing --subject/],
      ['a token living over 365 days', ['token', 'create', '--subject', 'a', '--all-projects', '--expires-in', '366d'], /invalid --expires-in "366d"/],
      ['a token living 0 seconds', ['token', 'create', '--subject', 'a', '--all-projects', '--expires-in', '0s'], /invalid --expires-in "0s"/],
      ['a duration in weeks', ['token', 'create', '--subject', 'a', '--all-projects', '--expires-in', '2w'], /invalid --expires-in "2w"/],
    ];
    it('rejects bad or missing arguments with exit 2 before touching the database', async function () {
      const runs = await Promise.all(cases.map(([, args]) => admin([...args, '--json'], { MONGODB_URI: UNREACHABLE_URI })));
      runs.forEach((run, i) => {
        const [what, , message] = cases[i]!;
        expect(run.code, `${what}: ${run.stderr}`).to.equal(2);
        expectFailure(run, 2, message);
        expect(run.stderr, what).to.match(/\(see: admin [a-z ]*--help\)\n$/);
      });
    });

    it('reports a configuration error with exit 1', async function () {
      const run = await admin(['project', 'list', '--json'], { JWT_SECRET: '' });
      expectFailure(run, 1, /^error: configuration: JWT_SECRET is required when MONGODB_URI is set/);
    });
  });

  describe('project', function () {
    it('creates projects (JSON and table) and refuses a taken slug with exit 1', async function () {
      const [shop, docs] = [unique('shop'), unique('docs')];
      const [created, table] = await Promise.all([json('project', 'create', '--slug', shop), human('project', 'create', '--slug', docs, '--name', 'The Docs')]);
      expect(created).to.have.all.keys('id', 'slug', 'name', 'createdAt');
      expect(created).to.include({ slug: shop, name: shop }); // the name defaults to the slug
      expect(created['id']).to.match(PROJECT_ID);
      expect(created['createdAt']).to.match(ISO);
      const lines = expectAligned(table, ['ID', 'SLUG', 'NAME', 'CREATED']);
      expect(lines).to.have.length(2);
      expect(lines[1]).to.match(new RegExp(`^proj_\\w{26}\\s+${docs}\\s+The Docs\\s+\\d{4}-`));

      const [again, againHuman] = await Promise.all([admin(['project', 'create', '--slug', shop, '--json']), admin(['project', 'create', '--slug', docs])]);
      expectFailure(again, 1, new RegExp(`project slug "${shop}" is taken`));
      expectFailure(againHuman, 1, new RegExp(`project slug "${docs}" is taken`));
    });

    it('lists projects by slug (JSON and table)', async function () {
      const slugs = [unique('zeta'), unique('alpha')];
      await Promise.all(slugs.map((slug) => json('project', 'create', '--slug', slug, '--name', `Project ${slug}`)));
      const [listed, table] = await Promise.all([json('project', 'list'), human('project', 'list')]);
      expect(listed).to.have.all.keys('projects');
      const projects = listed['projects'] as Json[];
      const all = projects.map((p) => p['slug'] as string);
      expect(all).to.deep.equal([...all].sort());
      for (const slug of slugs) {
        const project = projects.find((p) => p['slug'] === slug);
        expect(project).to.have.all.keys('id', 'slug', 'name', 'createdAt');
        expect(project).to.include({ name: `Project ${slug}` });
        expect(table).to.match(new RegExp(`${project!['id']}\\s+${slug}\\s+Project ${slug}\\s`));
      }
      expect(expectAligned(table, ['ID', 'SLUG', 'NAME', 'CREATED'])).to.have.length(projects.length + 1);
    });
  });

  describe('version', function () {
    it('creates versions by project slug or id, and refuses duplicates and unknown projects', async function () {
      const project = await json('project', 'create', '--slug', unique('versions'));
      const [main, staging, table] = await Promise.all([
        json('version', 'create', '--project', project['slug'] as string, '--type', 'branch', '--slug', 'main'),
        json('version', 'create', '--project', project['id'] as string, '--type', 'environment', '--slug', 'staging'),
        human('version', 'create', '--project', project['slug'] as string, '--type', 'environment', '--slug', 'main'),
      ]);
      expect(main).to.have.all.keys('id', 'projectId', 'type', 'slug', 'createdAt', 'updatedAt', 'copiedFrom');
      expect(main).to.include({ projectId: project['id'], type: 'branch', slug: 'main', copiedFrom: null });
      expect(main['id']).to.match(VERSION_ID);
      expect(main['createdAt']).to.match(ISO);
      expect(staging).to.include({ projectId: project['id'], type: 'environment', slug: 'staging' });
      // The same slug under the other type is a different version.
      expect(expectAligned(table, ['ID', 'TYPE', 'SLUG', 'CREATED'])[1]).to.match(/^ver_\w{26}\s+environment\s+main\s/);

      const [duplicate, unknown] = await Promise.all([
        admin(['version', 'create', '--project', project['id'] as string, '--type', 'branch', '--slug', 'main', '--json']),
        admin(['version', 'create', '--project', 'no-such-project', '--type', 'branch', '--slug', 'main', '--json']),
      ]);
      expectFailure(duplicate, 1, new RegExp(`branch "main" already exists in project "${project['slug']}"`));
      expectFailure(unknown, 1, /project "no-such-project" not found/);
    });

    it('lists the versions of one project by type and slug (JSON and table)', async function () {
      this.timeout(90_000); // eleven CLI runs in three rounds, each process opening the database: 30 s was exceeded on a loaded machine
      const [project, other, bare] = await Promise.all(['listed', 'other', 'bare'].map((slug) => json('project', 'create', '--slug', unique(slug))));
      const ref = project!['slug'] as string;
      await Promise.all([
        ...[['environment', 'prod'], ['branch', 'main'], ['branch', 'feature-x']].map(([type, slug]) =>
          json('version', 'create', '--project', ref, '--type', type!, '--slug', slug!)),
        json('version', 'create', '--project', other!['id'] as string, '--type', 'branch', '--slug', 'elsewhere'),
      ]);
      const [listed, table, empty, unknown] = await Promise.all([
        json('version', 'list', '--project', project!['id'] as string),
        human('version', 'list', '--project', ref),
        human('version', 'list', '--project', bare!['slug'] as string),
        admin(['version', 'list', '--project', 'proj_00000000000000000000000000', '--json']),
      ]);
      expect(listed).to.have.all.keys('versions');
      const versions = listed['versions'] as Json[];
      expect(versions.map((v) => `${v['type']}/${v['slug']}`)).to.deep.equal(['branch/feature-x', 'branch/main', 'environment/prod']);
      for (const version of versions) expect(version).to.include({ projectId: project!['id'] });
      const lines = expectAligned(table, ['ID', 'TYPE', 'SLUG', 'CREATED']);
      expect(lines.slice(1).map((line) => line.split(/\s+/).slice(1, 3).join('/'))).to.deep.equal(['branch/feature-x', 'branch/main', 'environment/prod']);
      expect(empty).to.match(/has no versions/);
      expectFailure(unknown, 1, /project "proj_00000000000000000000000000" not found/);
    });

    it('creates a version as a copy and deletes one, through the same code as the HTTP interface', async function () {
      this.timeout(90_000); // seven CLI runs one after another
      const [project, other] = await Promise.all(['copied', 'foreign'].map((slug) => json('project', 'create', '--slug', unique(slug))));
      const main = await json('version', 'create', '--project', project!['id'] as string, '--type', 'branch', '--slug', 'main');
      const foreign = await json('version', 'create', '--project', other!['id'] as string, '--type', 'branch', '--slug', 'main');
      const copy = await json('version', 'create', '--project', project!['slug'] as string, '--type', 'branch', '--slug', 'next', '--copy-from', main['id'] as string);
      expect(copy).to.include({ projectId: project!['id'], slug: 'next', copiedFrom: main['id'] });
      expectFailure(
        await admin(['version', 'create', '--project', project!['id'] as string, '--type', 'branch', '--slug', 'x', '--copy-from', foreign['id'] as string]),
        1, /not found in project/);
      const deleted = await json('version', 'delete', copy['id'] as string);
      expect(deleted).to.deep.equal({ deleted: copy });
      expectFailure(await admin(['version', 'delete', copy['id'] as string]), 1, /not found/);
      const listed = await json('version', 'list', '--project', project!['id'] as string);
      expect((listed['versions'] as Json[]).map((v) => v['slug'])).to.deep.equal(['main']);
    });
  });

  describe('key', function () {
    it('creates keys whose secret is shown once, lists them without secrets, and revokes them', async function () {
      const project = await json('project', 'create', '--slug', unique('keys'));
      const ref = project['slug'] as string;
      const [readWrite, readOnlyTable] = await Promise.all([
        json('key', 'create', '--project', ref),
        human('key', 'create', '--project', project['id'] as string, '--read-only'),
      ]);
      expect(readWrite).to.have.all.keys('id', 'projectId', 'prefix', 'readOnly', 'createdAt', 'key');
      expect(readWrite).to.include({ projectId: project['id'], readOnly: false });
      expect(readWrite['id']).to.match(KEY_ID);
      expect(readWrite['createdAt']).to.match(ISO);
      const secret = readWrite['key'] as string;
      expect(secret).to.match(/^catk_[\w-]{40,}$/);
      expect(secret.startsWith(readWrite['prefix'] as string)).to.equal(true);

      expect(readOnlyTable).to.match(/^ID\s+PREFIX\s+ACCESS\s+CREATED\s+REVOKED\n/);
      expect(readOnlyTable).to.match(/read-only/);
      expect(readOnlyTable).to.match(/will not be shown again/);
      const readOnlySecret = /^ {2}(catk_\S+)$/m.exec(readOnlyTable)?.[1];
      expect(readOnlySecret, readOnlyTable).to.be.a('string');
      const readOnlyId = /^(key_\w{26}) /m.exec(readOnlyTable)?.[1];

      const [listed, table] = await Promise.all([json('key', 'list', '--project', ref), human('key', 'list', '--project', ref)]);
      const keys = listed['keys'] as Json[];
      expect(keys).to.have.length(2);
      for (const key of keys) {
        expect(key).to.have.all.keys('id', 'projectId', 'prefix', 'readOnly', 'createdAt', 'revokedAt');
        expect(key).to.include({ projectId: project['id'], revokedAt: null });
      }
      expect(keys.find((k) => k['id'] === readWrite['id'])).to.include({ readOnly: false, prefix: readWrite['prefix'] });
      expect(keys.find((k) => k['id'] === readOnlyId)).to.include({ readOnly: true });
      for (const output of [JSON.stringify(listed), table]) {
        expect(output).not.to.include(secret);
        expect(output).not.to.include(readOnlySecret);
      }
      expectAligned(table, ['ID', 'PREFIX', 'ACCESS', 'CREATED', 'REVOKED']);

      const revoked = await json('key', 'revoke', readWrite['id'] as string);
      expect(revoked).to.include({ id: readWrite['id'], projectId: project['id'], prefix: readWrite['prefix'] });
      expect(revoked['revokedAt']).to.match(ISO);
      expect(revoked).not.to.have.property('key');
      const [again, againTable, relisted] = await Promise.all([
        json('key', 'revoke', readWrite['id'] as string),
        human('key', 'revoke', readWrite['id'] as string),
        json('key', 'list', '--project', ref),
      ]);
      expect(again['revokedAt'], 'revoking again keeps the first time').to.equal(revoked['revokedAt']);
      expect(againTable).to.include(`was already revoked at ${revoked['revokedAt']}`);
      const revokedAt = Object.fromEntries((relisted['keys'] as Json[]).map((k) => [k['id'], k['revokedAt']]));
      expect(revokedAt).to.deep.equal({ [readWrite['id'] as string]: revoked['revokedAt'], [readOnlyId!]: null });
    });

    it('revokes a fresh key in the table output too', async function () {
      const project = await json('project', 'create', '--slug', unique('revoke'));
      const key = await json('key', 'create', '--project', project['slug'] as string);
      const table = await human('key', 'revoke', key['id'] as string);
      expect(table).to.match(new RegExp(`^${key['id']}\\s+${key['prefix']}\\s+read-write\\s+\\S+\\s+\\d{4}-`, 'm'));
      expect(table).to.include(`Revoked key ${key['id']}.`);
    });

    it('fails with exit 1 on an unknown key id or project', async function () {
      const [revoke, create, list] = await Promise.all([
        admin(['key', 'revoke', 'key_00000000000000000000000000', '--json']),
        admin(['key', 'create', '--project', 'nowhere', '--json']),
        admin(['key', 'list', '--project', 'nowhere']),
      ]);
      expectFailure(revoke, 1, /API key "key_00000000000000000000000000" not found/);
      expectFailure(create, 1, /project "nowhere" not found/);
      expectFailure(list, 1, /project "nowhere" not found/);
    });
  });

  describe('token', function () {
    function claims(token: string): Json {
      return jwt.decode(token) as Json;
    }

    it('issues a read-write token for projects named by slug or id (deduplicated)', async function () {
      const [a, b] = await Promise.all([json('project', 'create', '--slug', unique('tok-a')), json('project', 'create', '--slug', unique('tok-b'))]);
      const before = Math.floor(Date.now() / 1000);
      const issued = await json('token', 'create', '--subject', 'alice@example.com',
        '--project', a['slug'] as string, '--project', b['id'] as string, '--project', a['id'] as string, '--expires-in', '12h');
      const after = Math.ceil(Date.now() / 1000);
      expect(issued).to.have.all.keys('token', 'expiresAt', 'subject', 'projects', 'scope');
      expect(issued).to.deep.include({ subject: 'alice@example.com', projects: [a['id'], b['id']], scope: 'catalog:read catalog:write' });

      const token = issued['token'] as string;
      const credential = verifyToken(token, JWT_SECRET);
      expect(credential).to.deep.include({ scheme: 'personalAccessToken', subject: 'alice@example.com', read: true, write: true });
      expect([...(credential!.projects as Set<string>)]).to.have.members([a['id'], b['id']]);
      expect(verifyToken(token, 'another secret of at least thirty-two bytes!')).to.equal(null);

      const payload = claims(token);
      expect(payload).to.include({ sub: 'alice@example.com', aud: 'catalog-api', scope: 'catalog:read catalog:write' });
      expect(payload['projects']).to.deep.equal([a['id'], b['id']]);
      expect(payload['exp']).to.be.within(before + 12 * 3600, after + 12 * 3600);
      expect(issued['expiresAt']).to.equal(new Date((payload['exp'] as number) * 1000).toISOString());
    });

    it('issues a read-only token for all projects, 30 days by default, shown once in the table output', async function () {
      const before = Math.floor(Date.now() / 1000);
      const [issued, table] = await Promise.all([
        json('token', 'create', '--subject', 'ci-bot', '--all-projects', '--read-only'),
        human('token', 'create', '--subject', 'reader', '--all-projects', '--read-only', '--expires-in', '90m'),
      ]);
      const after = Math.ceil(Date.now() / 1000);
      expect(issued).to.deep.include({ subject: 'ci-bot', projects: ['*'], scope: 'catalog:read' });
      const credential = verifyToken(issued['token'] as string, JWT_SECRET);
      expect(credential).to.deep.include({ subject: 'ci-bot', projects: 'all', read: true, write: false });
      const payload = claims(issued['token'] as string);
      expect(payload).to.include({ sub: 'ci-bot', scope: 'catalog:read' });
      expect(payload['projects']).to.deep.equal(['*']);
      expect(payload['exp']).to.be.within(before + 30 * DAY, after + 30 * DAY);

      expect(table).to.match(/^SUBJECT\s+PROJECTS\s+SCOPE\s+EXPIRES\nreader\s+all projects\s+catalog:read\s+\d{4}-/);
      expect(table).to.match(/will not be shown again/);
      const token = /^ {2}(\S+\.\S+\.\S+)$/m.exec(table)?.[1];
      expect(verifyToken(token!, JWT_SECRET)).to.deep.include({ subject: 'reader', projects: 'all', write: false });
      expect(claims(token!)['exp']).to.be.within(before + 90 * 60, after + 90 * 60);
    });

    it('accepts the longest lifetime, 365 days', async function () {
      const issued = await json('token', 'create', '--subject', 'long', '--all-projects', '--expires-in', '365d');
      const exp = claims(issued['token'] as string)['exp'] as number;
      expect(exp - Date.now() / 1000).to.be.within(365 * DAY - 60, 365 * DAY + 1);
    });

    it('refuses a token for an unknown project with exit 1', async function () {
      const known = await json('project', 'create', '--slug', unique('known'));
      const run = await admin(['token', 'create', '--subject', 'x', '--project', known['slug'] as string, '--project', 'ghost', '--json']);
      expectFailure(run, 1, /project "ghost" not found/);
    });

    it('shows and sets a project\'s lint settings from a YAML file, each save a revision; a bad ruleset is exit 1 naming the problem', async function () {
      this.timeout(120_000);
      const project = await json('project', 'create', '--slug', unique('linted'));
      const slug = project['slug'] as string;
      expect(await json('lint', 'show', '--project', slug)).to.deep.include({ revision: 0 });
      const file = path.join(dataDir, `${slug}.yaml`);
      await fs.writeFile(file, 'rulesets: [spectral:oas]\nseverities:\n  info-contact: "off"\nexemptions:\n  - rule: operation-description\n    operation: {method: GET, path: /health}\n');
      expect(await json('lint', 'set', '--project', slug, '--file', file)).to.include({ revision: 1 });
      const shown = await json('lint', 'show', '--project', slug);
      expect(shown).to.deep.include({ revision: 1 });
      expect((shown['settings'] as Json)['severities']).to.deep.equal({ 'info-contact': 'off' });
      const bad = path.join(dataDir, `${slug}-bad.yaml`);
      await fs.writeFile(bad, 'documents:\n  - name: remote\n    ruleset:\n      extends: [https://example.com/ruleset.yaml]\n');
      expectFailure(await admin(['lint', 'set', '--project', slug, '--file', bad]), 1, /\/documents\/0\/ruleset\/extends\/0 may only name a built-in ruleset/);
      expect(await json('lint', 'show', '--project', slug)).to.deep.include({ revision: 1 });
    });
  });
});
