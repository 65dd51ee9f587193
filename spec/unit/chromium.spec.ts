// The browser tests get their browser themselves (spec/support/chromium.ts): a fresh machine's
// `npm test` must not fail for want of one, nor pass by skipping them.
import { expect } from 'chai';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromiumExecutable } from '../support/chromium.ts';

describe('Getting Chromium for the browser tests', () => {
  const missing = path.join(os.tmpdir(), 'no-such-dir', 'chromium');

  it('uses the browser where it already is, installing nothing', async () => {
    let installs = 0;
    const found = await chromiumExecutable({ executable: process.execPath, install: async () => { installs++; } });
    expect(found).to.equal(process.execPath);
    expect(installs).to.equal(0);
  });

  it('installs it when missing, saying so in one line', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'chromium-'));
    const executable = path.join(dir, 'chromium');
    const lines: string[] = [];
    const found = await chromiumExecutable({
      executable,
      install: async () => fs.copyFile(process.execPath, executable),
      log: (line) => lines.push(line),
    });
    expect(found).to.equal(executable);
    expect(lines).to.have.length(1);
    expect(lines[0]).to.match(/installing Debian's chromium/);
    await fs.rm(dir, { recursive: true });
  });

  it('fails with one line saying how to get it where it cannot be installed', async () => {
    const failure = await chromiumExecutable({ executable: missing, install: null }).then(() => null, (error: Error) => error);
    expect(failure).to.be.an('error');
    expect(failure!.message).to.not.include('\n');
    expect(failure!.message).to.include('apt-get install chromium');
    expect(failure!.message).to.include('CHROMIUM_PATH');
  });
});
