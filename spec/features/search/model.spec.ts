// The search model: the pinned all-MiniLM-L6-v2 files, fetched by the project's own script on
// first need (as a newcomer's `npm test` must), loaded from their folder, and refused when a
// file differs from its pin or is missing: then the service ranks by its index alone and says so.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { Embedder, ModelRefused } from '../../../server/search/model/embedder.ts';
import { PINNED_FILES } from '../../../server/search/model/files.ts';
import { pinnedModel } from '../../support/search-model.ts';
import { bearer, givenTenant, startService, type TestService } from '../../support/service.ts';
import { shop } from './shop.ts';

/** A private copy of the model's folder, changed by `change`. */
async function changedCopy(dir: string, change: (copy: string) => Promise<void>): Promise<string> {
  const copy = await fs.mkdtemp(path.join(os.tmpdir(), 'search-model-'));
  for (const file of PINNED_FILES) await fs.copyFile(path.join(dir, file.name), path.join(copy, file.name));
  await change(copy);
  return copy;
}

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, value, i) => sum + value * b[i]!, 0);

describe('search model: loading from a folder, checked against the pins', function () {
  this.timeout(300_000);
  let dir: string;
  const made: string[] = [];

  before(async () => { dir = await pinnedModel(); });
  after(async () => { await Promise.all(made.map((copy) => fs.rm(copy, { recursive: true, force: true }))); });

  it('loads the pinned model and embeds an ask nearer its operation than another', async () => {
    const embedder = await Embedder.load(dir, PINNED_FILES);
    try {
      expect(embedder.modelSha).to.equal(PINNED_FILES.find((file) => file.name === 'model.onnx')!.sha256);
      const [ask, create, remove] = await embedder.embed(['add a new customer', 'POST /customers Create a customer createCustomer', 'DELETE /repos/{owner}/{repo} Delete a repository deleteRepo']);
      expect(ask).to.have.length(384);
      expect(dot(ask!, ask!)).to.be.closeTo(1, 1e-5);
      expect(dot(ask!, create!)).to.be.greaterThan(dot(ask!, remove!) + 0.2);
    } finally {
      await embedder.close();
    }
  });

  it('refuses a file whose sha256 is not its pin, naming it', async () => {
    const copy = await changedCopy(dir, (folder) => fs.appendFile(path.join(folder, 'tokenizer_config.json'), ' '));
    made.push(copy);
    const refused = await Embedder.load(copy, PINNED_FILES).then(() => undefined, (error: unknown) => error);
    expect(refused).to.be.instanceOf(ModelRefused);
    expect((refused as Error).message).to.match(/tokenizer_config\.json \(sha256 [0-9a-f]{64}, pinned acb92769/);
  });

  it('refuses a folder without the tokenizer', async () => {
    const copy = await changedCopy(dir, (folder) => fs.rm(path.join(folder, 'tokenizer.json')));
    made.push(copy);
    const refused = await Embedder.load(copy).then(() => undefined, (error: unknown) => error);
    expect(refused).to.be.instanceOf(ModelRefused);
    expect((refused as Error).message).to.include('lacks tokenizer.json');
  });

  describe('a service without its model answers from the index, and says so', () => {
    const services: TestService[] = [];
    after(async () => { await Promise.all(services.map((service) => service.close())); });

    const cases: [string, () => Promise<Record<string, string>>][] = [
      ['SEARCH_MODEL=off', async () => ({ SEARCH_MODEL: 'off' })],
      ['a cached model file changed since it was fetched', async () => {
        const cache = await fs.mkdtemp(path.join(os.tmpdir(), 'search-cache-'));
        made.push(cache);
        await fs.mkdir(path.join(cache, 'models'));
        const copy = await changedCopy(dir, async (folder) => {
          const bytes = await fs.readFile(path.join(folder, 'model.onnx'));
          bytes[bytes.length - 1] = bytes.at(-1)! ^ 1;
          await fs.writeFile(path.join(folder, 'model.onnx'), bytes);
        });
        await fs.rename(copy, path.join(cache, 'models', 'all-MiniLM-L6-v2'));
        return { CACHE_DIR: cache };
      }],
      ['a folder without model.onnx', async () => {
        const copy = await changedCopy(dir, (folder) => fs.rm(path.join(folder, 'model.onnx')));
        made.push(copy);
        return { SEARCH_MODEL: copy };
      }],
    ];
    for (const [title, env] of cases) {
      it(title, async () => {
        const service = await startService(await env());
        services.push(service);
        expect(await service.runtime.searchIndexes.vectors!.ready).to.equal(null);
        const tenant = await givenTenant(service);
        expect((await service.request.post(`${tenant.prefixes.V}/imports/openapi?service=shop`).set(bearer(tenant.key)).send(shop())).status).to.equal(201);
        const res = await service.request.get(`${tenant.prefixes.V}/search`).query({ q: 'list invoices' }).set(bearer(tenant.key));
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body.ranking).to.equal('lexical');
        // As the index alone ranks them.
        const index = await service.runtime.searchIndexes.of(tenant.version.id);
        expect(res.body.hits.map((hit: { operation: { id: string } }) => hit.operation.id))
          .to.deep.equal(index.search({ query: 'list invoices', limit: 20 }).map((hit) => (hit['operation'] as { id: string }).id));
        expect(res.body.hits[0].operation.operationId).to.equal('listInvoices');
      });
    }
  });
});
