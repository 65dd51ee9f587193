// A description kept as several files (an entry joined to `paths/`, `schemas/`… files by relative
// `$ref`s) made one document, by Redocly's bundler: each file reached is read once, references
// between files become references into `components` (or are inlined where a component cannot
// hold them), and the result imports as the single-file form would. Where the files come from
// is the caller's: a folder on disk (the push command) or an uploaded archive (the import route).
// Either way only files inside the entry's tree are read; a URL only where the caller allows it,
// and never on the server (no request of ours goes where a tenant's document says).
import path from 'node:path';
import { BaseResolver, bundle, createConfig, Source, YamlParseError, type BundleResult, type Config } from '@redocly/openapi-core';
import { isObject, type JsonObject } from '../json/values.ts';

/** Where a bundle's files come from. */
export interface DescriptionFiles {
  /** The folder every local reference must stay inside (an absolute path). */
  readonly root: string;
  /** The text of a file under `root`, by absolute path; rejects when it is missing. */
  read(file: string): Promise<string>;
  /** URL prefixes a reference may fetch from (the push command's `--allow-remote-refs`); none by default. */
  readonly remotePrefixes?: readonly string[];
}

/** A bundle that could not be made: each problem names the file or reference at fault. */
export class BundleRefused extends Error {
  readonly problems: readonly { file: string; message: string }[];
  constructor(problems: { file: string; message: string }[]) {
    super(problems.map(({ file, message }) => `${file}: ${message}`).join('; '));
    this.problems = problems;
  }
}

/** The entry and every file it reaches, as one document; `files` lists what was read (the entry first). */
export async function bundleDescription(entry: string, files: DescriptionFiles): Promise<{ document: JsonObject; files: string[] }> {
  const resolver = new TreeResolver(files);
  const absoluteEntry = path.resolve(files.root, entry);
  const refusal = resolver.refusal(absoluteEntry);
  if (refusal) throw new BundleRefused([{ file: entry, message: refusal }]);
  let result: BundleResult;
  try {
    result = await bundle({ ref: absoluteEntry, config: await bundlerConfig(), externalRefResolver: resolver, dereference: false });
  } catch (error) {
    // The entry itself unreadable (refused, missing) or not YAML: the bundler throws rather than reports.
    if (resolver.refused.length > 0) throw new BundleRefused(resolver.refused);
    if (error instanceof YamlParseError) throw new BundleRefused([{ file: entry, message: `is not valid JSON or YAML: ${error.message.split('\n')[0]}` }]);
    throw error;
  }
  // A file refused or missing is reported once, by the resolver, naming that file; the bundler's
  // own error for it names only the file holding the reference.
  const failed = [...resolver.refused, ...unresolved(result.problems, files.root).filter(({ message }) => !message.includes(NOT_READ))];
  if (failed.length > 0) throw new BundleRefused(failed);
  const document = result.bundle.parsed;
  if (!isObject(document)) throw new BundleRefused([{ file: entry, message: 'is not a JSON or YAML object' }]);
  const leftOver = localiseLeftOverRefs(document, { entry: absoluteEntry, root: files.root, components: componentFiles(document, resolver, absoluteEntry) });
  if (leftOver.length > 0) throw new BundleRefused(leftOver);
  const read = [...resolver.getFiles()].map((file) => relative(files.root, file));
  return { document, files: [relative(files.root, absoluteEntry), ...read.filter((file) => file !== relative(files.root, absoluteEntry))] };
}

/** Reads only what the tree allows, and remembers what it refused (the bundler reports a refusal only as an unresolved `$ref`). */
class TreeResolver extends BaseResolver {
  readonly refused: { file: string; message: string }[] = [];
  readonly #files: DescriptionFiles;

  constructor(files: DescriptionFiles) {
    super({ http: { headers: [] } });
    this.#files = files;
  }

  refusal(absoluteRef: string): string | undefined {
    if (isUrl(absoluteRef)) {
      return (this.#files.remotePrefixes ?? []).some((prefix) => absoluteRef.startsWith(prefix))
        ? undefined : 'is a URL reference; only files inside the description\'s folder are read (the push command\'s --allow-remote-refs allows a URL prefix)';
    }
    const inside = path.relative(this.#files.root, absoluteRef);
    return inside.startsWith('..') || path.isAbsolute(inside) ? 'is outside the description\'s folder' : undefined;
  }

  /**
   * In a file other than the entry, each reference inside an `x-` extension or an example's value
   * is kept from the bundler (which inlines what some of them reach and cannot resolve others,
   * changing the data) under a key of ours, made absolute since the file it was relative to is no
   * more; mended after (see below).
   */
  /** The entry's `components` as written (a copy: the bundler rewrites the entry in place). */
  entryComponents: unknown;

  override parseDocument(source: Source, isRoot = false): ReturnType<BaseResolver['parseDocument']> {
    const document = super.parseDocument(source, isRoot);
    if (isRoot && isObject(document.parsed)) this.entryComponents = structuredClone(document.parsed['components']);
    if (!isRoot && !isUrl(source.absoluteRef)) hideExtensionRefs(document.parsed, source.absoluteRef, false);
    return document;
  }

  override async loadExternalRef(absoluteRef: string): Promise<Source> {
    const refusal = this.refusal(absoluteRef);
    if (refusal) {
      this.refused.push({ file: relative(this.#files.root, absoluteRef), message: refusal });
      throw new Error(NOT_READ);
    }
    try {
      if (isUrl(absoluteRef)) return await super.loadExternalRef(absoluteRef);
      return new Source(absoluteRef, (await this.#files.read(absoluteRef)).replace(/\r\n/g, '\n'));
    } catch {
      this.refused.push({ file: relative(this.#files.root, absoluteRef), message: 'cannot be read (no such file)' });
      throw new Error(NOT_READ);
    }
  }
}

/** The key an extension's reference waits under while the bundler works: no OpenAPI object uses it. */
const HIDDEN_REF = '$catalogExtensionRef';

/** What the resolver throws for a file it did not read, so the bundler's own report of it can be told apart. */
const NOT_READ = 'not read by the catalog\'s resolver';

let config: Promise<Config> | undefined;
/** No rules, no decorators: the bundler only joins files (the import validates what it gets). */
function bundlerConfig(): Promise<Config> {
  config ??= createConfig({});
  return config;
}

type Problem = { message: string; severity: string; location?: readonly { source?: { absoluteRef?: string } }[] };

/** The bundler's errors (a file missing or unreadable, YAML that does not parse), each named by its file. */
function unresolved(problems: readonly Problem[], root: string): { file: string; message: string }[] {
  return problems.filter((problem) => problem.severity === 'error').map((problem) => {
    const where = problem.location?.[0]?.source?.absoluteRef;
    return { file: where ? relative(root, where) : '/', message: problem.message };
  });
}

function hideExtensionRefs(value: unknown, file: string, hidden: boolean, inExamples = false): void {
  if (typeof value !== 'object' || value === null) return;
  const node = value as Record<string, unknown>;
  for (const [key, item] of Object.entries(node)) {
    if (hidden && key === '$ref' && typeof item === 'string' && !isUrl(item)) {
      const [target = '', fragment] = item.split('#', 2);
      delete node[key];
      node[HIDDEN_REF] = `${target === '' ? file : path.resolve(path.dirname(file), target)}${fragment === undefined ? '' : `#${fragment}`}`;
    } else if (inExamples && isObject(item)) {
      // An Example Object of an `examples` map: its `value` is data.
      for (const [member, content] of Object.entries(item)) hideExtensionRefs({ [member]: content }, file, hidden || member === 'value');
    } else {
      hideExtensionRefs(item, file, hidden || key.startsWith('x-') || key === 'example', key === 'examples' && !Array.isArray(item));
    }
  }
}

interface Places {
  entry: string;
  root: string;
  /** `#/components/<kind>/<name>` of each file the entry's components name by reference (`schemas/a.yaml` → `#/components/schemas/a`). */
  components: ReadonlyMap<string, string>;
}

/** The extension and example references kept from the bundler, written again: into the entry, or to a file the entry has as a component, they become local; elsewhere they cannot be carried, and say so. */
function localiseLeftOverRefs(value: unknown, places: Places, refused: { file: string; message: string }[] = []): { file: string; message: string }[] {
  if (typeof value !== 'object' || value === null) return refused;
  const node = value as Record<string, unknown>;
  for (const [key, item] of Object.entries(node)) {
    if (key === HIDDEN_REF && typeof item === 'string') {
      const [target = '', fragment = ''] = item.split('#', 2);
      delete node[key];
      const component = places.components.get(item) ?? (fragment === '' || fragment === '/' ? places.components.get(target) : undefined);
      node['$ref'] = target === places.entry ? `#${fragment}` : component ?? item;
      if (target !== places.entry && !component) {
        refused.push({ file: relative(places.root, target), message: 'is referenced from inside an extension (x-…) or an example, where only references into the entry or to its components\' files can be bundled' });
      }
    } else {
      localiseLeftOverRefs(item, places, refused);
    }
  }
  return refused;
}

/** The files the entry's components are references to, as the entry wrote them (read again from the resolver: the bundle replaced them). */
function componentFiles(bundled: JsonObject, resolver: TreeResolver, entry: string): Map<string, string> {
  const found = new Map<string, string>();
  const components = resolver.entryComponents;
  if (!isObject(components)) return found;
  for (const [kind, members] of Object.entries(components)) {
    if (!isObject(members)) continue;
    for (const [name, member] of Object.entries(members)) {
      const ref = isObject(member) ? member['$ref'] : undefined;
      if (typeof ref !== 'string' || ref.startsWith('#') || isUrl(ref)) continue;
      const [target = '', fragment] = ref.split('#', 2);
      const at = `#/components/${escapePointer(kind)}/${escapePointer(name)}`;
      if (pointerIn(bundled, at) !== undefined) found.set(`${path.resolve(path.dirname(entry), target)}${fragment === undefined ? '' : `#${fragment}`}`, at);
    }
  }
  return found;
}

function escapePointer(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

function pointerIn(document: JsonObject, pointer: string): unknown {
  let at: unknown = document;
  for (const token of pointer.slice(2).split('/')) at = isObject(at) ? at[token.replaceAll('~1', '/').replaceAll('~0', '~')] : undefined;
  return at;
}

function isUrl(ref: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(ref);
}

function relative(root: string, file: string): string {
  return isUrl(file) ? file : path.relative(root, file).split(path.sep).join('/');
}
