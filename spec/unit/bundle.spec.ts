// Bundling a description kept as files (server/descriptions/bundle.ts) gives back the document it
// was split from, on the largest real one: GitHub's, split into 1,781 files, with references in
// discriminator mappings, in `x-` extensions and inside examples' values.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { repoRoot } from '../../server/config.ts';
import { bundleDescription } from '../../server/descriptions/bundle.ts';
import { splitDescription } from '../support/split-description.ts';

const GITHUB = path.join(repoRoot, 'node_modules/@octokit/openapi/generated/api.github.com.json');

describe('bundle: a description split into files, joined again', function () {
  this.timeout(300_000);

  it('gives back GitHub\'s description exactly from its 1,781 files', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'catalog-bundle-'));
    try {
      const original = JSON.parse(await fs.readFile(GITHUB, 'utf8')) as Record<string, never>;
      const { files } = await splitDescription(original, dir);
      const bundled = await bundleDescription('openapi.yaml', { root: dir, read: (file) => fs.readFile(file, 'utf8') });
      expect(bundled.files).to.have.length(files);
      expect(bundled.document).to.deep.equal(original);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
