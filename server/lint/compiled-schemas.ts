// Spectral's `schema` function compiles the schema of every example its oas rules check
// (oas3-valid-media-example, oas3-valid-schema-example…) afresh: oasExample deep-copies the schema
// first (JSON.parse of JSON.stringify), so Spectral's cache of compiled schemas, keyed by the
// object, never hits. On GitHub's description Ajv's compile was 75 of 248 CPU seconds, mostly the
// same few schemas again. During one lint (sharedCompiles), a schema whose JSON text was compiled
// already gets the validator compiled then: same text, same Ajv instance, same options, so the
// same validator and the same findings. And during a lint a schema is compiled without Ajv's
// code optimization: it makes a validator that runs faster, but each of these runs on an example
// or two, and it was 8.5 of the 18 s Ajv's compiles took on GitHub's description (it rewrites the
// generated code, never what it checks or the errors it gives). Outside a lint nothing changes.
import { createRequire } from 'node:module';

type Compile = (this: Ajv, schema: unknown, meta?: boolean) => unknown;
/** What of an Ajv instance this reads: `code.optimize`, its passes of code optimization (Ajv's option). */
type Ajv = { opts: { code: { optimize?: number | boolean } } };

// The Ajv Spectral's functions load (they may not share this service's copy).
const require = createRequire(import.meta.url);
const ajvCore = require(require.resolve('ajv/dist/core', { paths: [require.resolve('@stoplight/spectral-functions')] })) as { default: { prototype: { compile: Compile } } };
const { prototype } = ajvCore.default;
const compile = prototype.compile;

/** The validators of the lint under way, by Ajv instance and schema text; undefined: none under way. */
let shared: WeakMap<object, Map<string, unknown>> | undefined;

prototype.compile = function compileOnce(this: Ajv, schema: unknown, meta?: boolean): unknown {
  // Schemas with an `$id` are kept by Ajv itself (Spectral asks getSchema first); booleans and `meta` are left alone.
  if (!shared || meta !== undefined || typeof schema !== 'object' || schema === null || '$id' in schema) return compile.call(this, schema, meta);
  let byText = shared.get(this);
  if (!byText) shared.set(this, (byText = new Map()));
  const text = JSON.stringify(schema);
  let validator = byText.get(text);
  if (validator === undefined) byText.set(text, (validator = compileUnoptimized(this, schema, meta)));
  return validator;
};

function compileUnoptimized(ajv: Ajv, schema: unknown, meta?: boolean): unknown {
  const { code } = ajv.opts;
  const passes = code.optimize;
  // Ajv reads the option as it compiles (compile/index.js), and compiling is synchronous.
  code.optimize = 0;
  try {
    return compile.call(ajv, schema, meta);
  } finally {
    code.optimize = passes;
  }
}

/** Runs one lint with compiled schemas shared by their text; they go when it ends. */
export async function sharedCompiles<T>(lint: () => Promise<T>): Promise<T> {
  shared = new WeakMap();
  try {
    return await lint();
  } finally {
    shared = undefined;
  }
}
