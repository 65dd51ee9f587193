// Spectral's packages, as this ESM service sees them: they are CommonJS, and Node hands some of
// their exports over as named ones and some only under `default`. One place takes them apart.
import { createRequire } from 'node:module';
import path from 'node:path';
import * as CoreModule from '@stoplight/spectral-core';
import * as FormatsModule from '@stoplight/spectral-formats';
import * as FunctionsModule from '@stoplight/spectral-functions';
import * as OwaspModule from '@stoplight/spectral-owasp-ruleset';
import * as ParsersModule from '@stoplight/spectral-parsers';
import * as ResolverModule from '@stoplight/spectral-ref-resolver';
import * as RulesetsModule from '@stoplight/spectral-rulesets';

type Loose = Record<string, any>;
const namespace = (module: object, marker: string): Loose => ((module as Loose)[marker] ? module : (module as Loose)['default']) as Loose;

export const Core = namespace(CoreModule, 'Spectral');
export const Parsers = namespace(ParsersModule, 'Json');
export const Formats = namespace(FormatsModule, 'oas3');
export const Functions = namespace(FunctionsModule, 'truthy');
const ResolverKit = namespace(ResolverModule, 'Resolver');
const Rulesets = namespace(RulesetsModule, 'oas');
const owasp = (OwaspModule as Loose)['default']?.['rules'] ? (OwaspModule as Loose)['default'] : ((OwaspModule as Loose)['default']?.['default'] ?? OwaspModule);

/** The built-in rulesets a project may choose, by the names Spectral's own ruleset files give them. */
export const BUILT_IN_RULESETS: Readonly<Record<string, object>> = {
  'spectral:oas': Rulesets['oas'],
  '@stoplight/spectral-owasp-ruleset': owasp,
};

/**
 * A resolver that resolves nothing outside the document: the exported description's `$ref`s
 * are all internal, and one that is not must not make the catalog read a URL or a file.
 */
export function internalOnlyResolver(): unknown {
  return new ResolverKit['Resolver']({ resolvers: {} });
}

// One of Spectral's internals, made cheaper without changing what it answers (the findings of
// GitHub's description are the same, in the same order, with and without: 58,971). It is
// checked to be there, so a Spectral that moved it fails at start-up rather than linting slower.
const requireHere = createRequire(import.meta.url);
const coreDist = path.dirname(requireHere.resolve('@stoplight/spectral-core'));
const internal = (file: string, name: string): Loose => {
  const prototype = (requireHere(path.join(coreDist, file)) as Loose)[name]?.prototype as Loose | undefined;
  if (!prototype) throw new Error(`@stoplight/spectral-core: no ${name} in ${file}`);
  return prototype;
};

/**
 * Where a rule's result lies in the description as written, remembered per document and path.
 * Spectral maps each result of each rule from the resolved document back through its `$ref`s
 * (`DocumentInventory.findAssociatedItemForPath`), anew for every rule, and OWASP's rules share
 * their `given`s (six match every string schema): on GitHub's description that mapping was 62 s
 * of a 230 s lint. The answer depends only on the document, the path and whether the rule reads
 * the resolved document, so each recent one is made once; each caller gets arrays of its own.
 */
function rememberAssociatedItems(): void {
  const prototype = internal('documentInventory.js', 'DocumentInventory');
  const find = prototype['findAssociatedItemForPath'] as (this: object, path: unknown[], resolved: boolean) => Associated | null;
  const remembered = new WeakMap<object, Map<string, Associated | null>>();
  prototype['findAssociatedItemForPath'] = function findRemembered(this: object, at: unknown[], resolved: boolean): Associated | null {
    let known = remembered.get(this);
    if (!known) remembered.set(this, known = new Map());
    // A segment's type (index or key) follows from the segments before it: joined, paths stay apart.
    const key = `${resolved ? 1 : 0}\u0000${at.join('\u0000')}`;
    let item = known.get(key);
    if (item === undefined) {
      if (known.size >= RECENT_PATHS) known.clear();
      known.set(key, item = find.call(this, at, resolved));
    }
    return item && { ...item, path: [...item.path], missingPropertyPath: [...item.missingPropertyPath] };
  };
}

interface Associated { document: unknown; path: unknown[]; missingPropertyPath: unknown[] }

/**
 * Paths remembered at once: the rules that share a `given` are called one after the other on
 * each node of one traversal, so the reuse is of recent paths. Kept whole, GitHub's took 240 MB.
 */
const RECENT_PATHS = 4096;

rememberAssociatedItems();

/**
 * A rule's message with its `{{placeholders}}` filled. Spectral's `message` makes an expression
 * parser (expr-eval) for every message it writes, though only a `#{{expression}}` uses it: on
 * GitHub's description, 58,971 findings, that was 3–5 CPU seconds. A message with no `#` is filled as
 * Spectral fills a plain placeholder (its value, or nothing when there is none); one with a `#`
 * goes to Spectral's own. `runner/utils/index.js` re-exports `message` through a getter, so
 * lintNode.js reads this one.
 */
function fillPlainMessages(): void {
  const messages = requireHere(path.join(coreDist, 'runner', 'utils', 'message.js')) as Loose;
  const spectralMessage = messages['message'] as ((input: string, values: Record<string, unknown>) => string) | undefined;
  if (typeof spectralMessage !== 'function') throw new Error('@stoplight/spectral-core: no message in runner/utils/message.js');
  // Spectral's Replacer(2): `{{identifier}}`, `#{{expression}}`.
  const placeholder = /#?\{\{([^}\n]+)\}\}/g;
  messages['message'] = (input: string, values: Record<string, unknown>): string => (input.includes('#')
    ? spectralMessage(input, values)
    : input.replace(placeholder, (_match, identifier: string) => (identifier in values ? String(values[identifier]) : '')));
}

fillPlainMessages();

/**
 * One resolution of a document for all of a lint's runs. Each `spectral.run` makes a
 * DocumentInventory and resolves the description again (every `$ref` inlined: seconds on GitHub's
 * 13 MB), and a lint runs twice (engine.ts: the rules whose filters may throw run alone first).
 * The resolution depends only on the document (the resolver reads nothing outside it), so the
 * second inventory takes the first's result, graph and errors; the rules read them and write
 * nothing to them (GitHub's 58,971 findings are the same, in the same order).
 */
function resolveOncePerDocument(): void {
  const prototype = internal('documentInventory.js', 'DocumentInventory');
  const resolve = prototype['resolve'] as (this: Loose) => Promise<void>;
  const resolutions = new WeakMap<object, Promise<{ graph: unknown; resolved: unknown; errors: unknown }>>();
  prototype['resolve'] = async function resolveShared(this: Loose): Promise<void> {
    const document = this['document'] as object;
    let shared = resolutions.get(document);
    if (!shared) {
      shared = resolve.call(this).then(() => ({ graph: this['graph'], resolved: this['resolved'], errors: this['errors'] }));
      resolutions.set(document, shared);
    }
    Object.assign(this, await shared);
  };
}

resolveOncePerDocument();
