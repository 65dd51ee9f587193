// What can be checked of the container files without a Docker engine: they parse, refer to
// what exists, start the service the way the README documents, and their health check command
// passes against the service and fails without it.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { parse } from 'yaml';
import { repoRoot } from '../../server/config.ts';
import { startCatalog } from '../support/catalog.ts';

interface Instruction {
  keyword: string;
  args: string;
}

/** Dockerfile instructions, with line continuations joined and comments dropped. */
function instructions(text: string): Instruction[] {
  const logical = text.replace(/\\\r?\n/g, ' ').split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('#'));
  return logical.map((line) => {
    const [keyword, ...rest] = line.split(/\s+/);
    return { keyword: keyword!.toUpperCase(), args: rest.join(' ') };
  });
}

/** The exec form `["a", "b"]` of CMD/HEALTHCHECK CMD as an array. */
function execForm(args: string): string[] {
  return JSON.parse(args.slice(args.indexOf('['))) as string[];
}

describe('Docker files', () => {
  const dockerfile = instructions(fs.readFileSync(path.join(repoRoot, 'docker/Dockerfile'), 'utf8'));
  const compose = parse(fs.readFileSync(path.join(repoRoot, 'docker/compose.yaml'), 'utf8')) as {
    services: Record<string, Record<string, unknown>>;
  };
  const ignored = fs.readFileSync(path.join(repoRoot, '.dockerignore'), 'utf8').split('\n').map((line) => line.trim()).filter(Boolean);
  const packageJson = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> };

  describe('Dockerfile', () => {
    it('is multi-stage: dependencies built in one stage, copied into the final one', () => {
      const stages = dockerfile.filter((i) => i.keyword === 'FROM');
      expect(stages.length).to.be.at.least(2);
      const named = stages.map((i) => /\bAS\s+(\S+)/i.exec(i.args)?.[1]).filter(Boolean);
      const fromStages = dockerfile.filter((i) => i.keyword === 'COPY' && /--from=/.test(i.args)).map((i) => /--from=(\S+)/.exec(i.args)![1]);
      expect(fromStages.length).to.be.greaterThan(0);
      for (const stage of fromStages) expect(named).to.include(stage);
    });

    it('copies only what exists in the build context and is not in .dockerignore', () => {
      const sources = dockerfile.filter((i) => i.keyword === 'COPY' && !/--from=/.test(i.args))
        .flatMap((i) => i.args.split(/\s+/).filter((word) => !word.startsWith('--')).slice(0, -1));
      expect(sources.length).to.be.greaterThan(3);
      for (const source of sources) {
        expect(fs.existsSync(path.join(repoRoot, source)), `${source} exists`).to.equal(true);
        expect(ignored.some((pattern) => source === pattern || source.startsWith(`${pattern}/`)), `${source} is not ignored`).to.equal(false);
      }
    });

    it('runs as a user other than root in the final stage', () => {
      const lastFrom = dockerfile.map((i) => i.keyword).lastIndexOf('FROM');
      const users = dockerfile.slice(lastFrom).filter((i) => i.keyword === 'USER').map((i) => i.args);
      expect(users).to.have.length.greaterThan(0);
      expect(users.at(-1)).not.to.match(/^(root|0)(:|$)/);
    });

    it('starts the service with the command `npm start` runs', () => {
      const cmd = dockerfile.filter((i) => i.keyword === 'CMD').at(-1)!;
      expect(execForm(cmd.args).join(' ')).to.equal(packageJson.scripts['start']);
    });

    it('checks its health with a command that passes against the service and fails without one', async function () {
      this.timeout(30_000);
      const healthcheck = dockerfile.find((i) => i.keyword === 'HEALTHCHECK')!;
      const [command, ...args] = execForm(healthcheck.args.slice(healthcheck.args.indexOf('CMD')));
      expect(command).to.equal('node');
      // The command as the container runs it, against the service listening on PORT, without credentials.
      const exitCode = (port: number): Promise<number> => new Promise((resolve) => {
        execFile(process.execPath, args, { env: { ...process.env, PORT: String(port) }, timeout: 20_000 }, (error) => resolve(error ? Number(error.code ?? 1) : 0));
      });
      const service = await startCatalog();
      const listening = service.app.listen(0, '127.0.0.1');
      try {
        await once(listening, 'listening');
        const { port } = listening.address() as AddressInfo;
        expect(await exitCode(port), 'healthy service').to.equal(0);
        listening.close();
        await once(listening, 'close');
        expect(await exitCode(port), 'nothing listening').to.not.equal(0);
      } finally {
        if (listening.listening) listening.close();
        await service.close();
      }
    });

    it('is built the way the README says', () => {
      const readme = fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
      expect(readme).to.include('docker build -f docker/Dockerfile -t catalog-service .');
      expect(readme).to.include('docker compose -f docker/compose.yaml up --build');
    });
  });

  describe('compose.yaml', () => {
    it('runs the service beside a single-node MongoDB replica set it waits for', () => {
      const { mongodb, catalog } = compose.services as Record<string, Record<string, any>>;
      expect(mongodb!['command']).to.include('--replSet');
      expect(JSON.stringify(mongodb!['healthcheck'])).to.include('rs.initiate');
      expect(catalog!['environment']['MONGODB_URI']).to.match(/^mongodb:\/\/mongodb:27017\/catalog\?replicaSet=rs0$/);
      expect(catalog!['depends_on']).to.deep.equal({ mongodb: { condition: 'service_healthy' } });
    });

    it('restarts what crashes: the service does not restart itself', () => {
      for (const [name, service] of Object.entries(compose.services as Record<string, Record<string, unknown>>)) {
        expect(service['restart'], name).to.equal('unless-stopped');
      }
    });

    it('builds from the Dockerfile that exists, with the repository as context', () => {
      const build = compose.services['catalog']!['build'] as { context: string; dockerfile: string };
      const context = path.resolve(repoRoot, 'docker', build.context);
      expect(context).to.equal(repoRoot);
      expect(fs.existsSync(path.join(context, build.dockerfile))).to.equal(true);
    });
  });
});
