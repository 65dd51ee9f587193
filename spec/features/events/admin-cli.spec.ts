// The admin CLI's subscription commands, the real script against the run's database: the secret
// printed once by create, list without it, pause and resume, deliveries, delete; bad input refused
// before the database is touched.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';
import { MongoClient } from 'mongodb';
import { repoRoot } from '../../../server/config.ts';
import { testDatabase } from '../../support/database.ts';
import { JWT_SECRET } from '../../support/catalog.ts';

function admin(args: readonly string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(repoRoot, 'scripts/admin.ts'), ...args], {
      cwd: repoRoot, env: { PATH: process.env['PATH'], MONGODB_URI: testDatabase().uri, JWT_SECRET, SEARCH_MODEL: 'off', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('admin CLI: subscriptions', function () {
  this.timeout(60_000);
  const slug = `cli-events-${process.pid}`;

  before(async () => {
    const made = await admin(['project', 'create', '--slug', slug, '--name', 'CLI events']);
    expect(made.code, made.stderr).to.equal(0);
  });

  it('creates (secret shown once), lists, pauses, resumes, lists deliveries and deletes', async () => {
    const created = await admin(['subscription', 'create', '--json', '--project', slug, '--url', 'https://hooks.example.com/catalog', '--types', 'catalog.service.changed,catalog.records.changed', '--services', 'pets']);
    expect(created.code, created.stderr).to.equal(0);
    const subscription = JSON.parse(created.stdout);
    expect(subscription).to.include({ url: 'https://hooks.example.com/catalog', paused: false });
    expect(subscription.secret).to.match(/^whsec_/);
    expect(subscription.services).to.deep.equal(['pets']);
    const listed = JSON.parse((await admin(['subscription', 'list', '--json', '--project', slug])).stdout);
    expect(listed.subscriptions.map((s: { id: string }) => s.id)).to.deep.equal([subscription.id]);
    expect(listed.subscriptions[0]).to.not.have.property('secret');
    expect(JSON.parse((await admin(['subscription', 'pause', subscription.id, '--json', '--project', slug])).stdout).paused).to.equal(true);
    expect(JSON.parse((await admin(['subscription', 'resume', subscription.id, '--json', '--project', slug])).stdout).paused).to.equal(false);
    expect(JSON.parse((await admin(['subscription', 'deliveries', subscription.id, '--json', '--project', slug])).stdout).deliveries).to.deep.equal([]);
    expect((await admin(['subscription', 'delete', subscription.id, '--project', slug])).stdout).to.equal(`Deleted subscription ${subscription.id}.\n`);
    const gone = await admin(['subscription', 'delete', subscription.id, '--project', slug]);
    expect(gone.code).to.equal(1);
    expect(gone.stderr).to.match(/not found/);
  });

  it('refuses an unknown event type (usage) and a private address unless allowed', async () => {
    const unknown = await admin(['subscription', 'create', '--project', slug, '--url', 'https://hooks.example.com/x', '--types', 'catalog.nothing']);
    expect(unknown.code).to.equal(2);
    expect(unknown.stderr).to.match(/unknown catalog\.nothing/);
    const loopback = await admin(['subscription', 'create', '--project', slug, '--url', 'http://127.0.0.1:9/x', '--types', 'catalog.records.changed']);
    expect(loopback.code).to.equal(1);
    expect(loopback.stderr).to.match(/loopback/);
    const allowed = await admin(['subscription', 'create', '--project', slug, '--url', 'http://127.0.0.1:9/x', '--types', 'catalog.records.changed'], { WEBHOOK_ALLOW_PRIVATE: 'on' });
    expect(allowed.code, allowed.stderr).to.equal(0);
  });

  it('records the events of a version created, copied and deleted on the command line, as over HTTP', async () => {
    const types = 'catalog.version.created,catalog.version.copied,catalog.version.deleted';
    const created = await admin(['subscription', 'create', '--json', '--project', slug, '--url', 'http://127.0.0.1:9/versions', '--types', types], { WEBHOOK_ALLOW_PRIVATE: 'on' });
    expect(created.code, created.stderr).to.equal(0);
    const subscription = JSON.parse(created.stdout) as { id: string };
    const made = await admin(['version', 'create', '--json', '--project', slug, '--type', 'branch', '--slug', 'cli-made']);
    expect(made.code, made.stderr).to.equal(0);
    const { id } = JSON.parse(made.stdout) as { id: string };
    const copied = await admin(['version', 'create', '--json', '--project', slug, '--type', 'branch', '--slug', 'cli-copy', '--copy-from', id]);
    expect(copied.code, copied.stderr).to.equal(0);
    expect((await admin(['version', 'delete', id])).code).to.equal(0);
    const client = await MongoClient.connect(testDatabase().uri);
    try {
      const jobs = await client.db().collection('event_outbox').find({ subscriptionId: subscription.id }).toArray();
      expect(jobs.map((job) => [job['type'], job['state']]).sort()).to.deep.equal([
        ['catalog.version.copied', 'ready'], ['catalog.version.created', 'ready'], ['catalog.version.deleted', 'ready'],
      ]);
    } finally {
      await client.close();
    }
  });
});
