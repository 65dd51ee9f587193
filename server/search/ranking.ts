// One version's search index: a MiniSearch (BM25+) document per operation, with per-field boosts,
// prefix and typo tolerance, over the terms of text.ts; its best candidates, fused with the
// operations nearest the query by vector when the version's vectors are all there (fusion.ts),
// are then ordered by how well the query names each operation (see naming) and whether it names
// the operation's service. Built from the records search reads (endpoints.ts's view), which it
// keeps to turn ranked operations into endpoint hits.
import MiniSearch, { type Options, type SearchOptions as EngineOptions } from 'minisearch';
import { RecordNotFound } from '../errors.ts';
import type { CatalogRecord } from '../store/records.ts';
import { endpointsOf, type VersionView } from './endpoints.ts';
import { cosine, FUSION, fuse, nearest, type Fusion, type Scored } from './fusion.ts';
import { canonical, methodAction, termOf, termsOf, wordsOf } from './text.ts';
import { BOOSTS, documentOf, documentsOf, parameterOwner, titleOf, touchedOperations, type Document } from './documents.ts';
import type { VectorTable } from './vectors.ts';

const ENGINE: Options<Document> = {
  fields: Object.keys(BOOSTS),
  tokenize: wordsOf,
  processTerm: (term) => termOf(term) ?? undefined,
};

/**
 * Prefix matches for terms of four letters or more (`stat` finds `status`; `pet` does not find
 * `petstore`), one typo in terms of five or more. MiniSearch counts such matches less than exact
 * ones. A query's words are alternatives: an operation matching more of them ranks higher.
 */
const ASKING: EngineOptions = {
  boost: BOOSTS,
  prefix: (term) => term.length >= 4,
  fuzzy: (term) => (term.length >= 5 ? 1 : false),
  combineWith: 'OR',
};

export interface SearchOptions {
  query: string;
  limit: number;
  /** Only that service's operations (the caller found the service: pipeline/stages.ts). */
  serviceId?: string;
  /** Only the operations of services at this lifecycle stage, or of this owner. */
  lifecycle?: string;
  owner?: string;
  /** The query's vector (the search model's); without it, or before the version's vectors are all had, the index alone ranks. */
  vector?: Float32Array;
  /** Another fusion than FUSION (the benchmark's tuning compares them). */
  fusion?: Fusion;
}

/** What ranked an answer: the index fused with vectors, or the index alone. */
export type Ranking = 'hybrid' | 'lexical';

/** How much more an operation counts when the query names its service ("send an sms with twilio"). */
const SERVICE_NAMED = 2;

/** Operations a patch always makes anew in place; past this, and past half the index, a whole build costs no more. */
const PATCH_ALWAYS = 64;

/** How many of the engine's best are ordered again by naming. */
const CANDIDATES = 100;

/** An operation's name as canonical terms: its operationId's, its summary's and its method's action. */
interface Name { operationId: readonly string[]; summary: readonly string[]; all: readonly string[]; item: boolean }

/**
 * The engine and the documents in it, shared by an index and the one patched from it (see
 * patched): only the latest of them may change it, so two patches never both change one engine.
 */
interface Engine { search: MiniSearch<Document>; documents: Map<string, Document>; latest: VersionIndex | undefined }

export class VersionIndex {
  readonly view: VersionView;
  readonly #engine: Engine;
  /** The operations whose documents (and so vectors' texts) this index made anew; undefined: all of them. */
  readonly changed: ReadonlySet<string> | undefined;
  readonly #operations: ReadonlyMap<string, CatalogRecord>;
  readonly #byOperationId: ReadonlyMap<string, CatalogRecord>;
  readonly #serviceOf: ReadonlyMap<string, string | undefined>;
  readonly #names = new Map<string, Name>();
  /** Each service's name as terms (its slug's, else its name's): the query names it when it has them all. */
  readonly #serviceTerms: ReadonlyMap<string, readonly string[]>;
  /** The operations' vectors, filled by the search vectors (vectors.ts) after the index is built. */
  vectors: VectorTable | undefined;

  private constructor(view: VersionView, engine: Engine, changed?: ReadonlySet<string>, names?: ReadonlyMap<string, Name>) {
    this.view = view;
    this.#engine = engine;
    engine.latest = this;
    this.changed = changed;
    if (names) for (const [id, name] of names) if (!changed?.has(id)) this.#names.set(id, name);
    const operations = view.of('operations');
    this.#operations = new Map(operations.map((operation) => [operation.id, operation]));
    // The first in document order wins, as before (operationIds are unique per service, not per version).
    this.#byOperationId = new Map(operations.toReversed().map((operation) => [String(operation['operationId']), operation]));
    this.#serviceOf = new Map(operations.map((operation) => [operation.id, str(view.byId('paths', operation['pathId'])?.['serviceId'])]));
    this.#serviceTerms = new Map(view.of('services').map((service) => [service.id, distinct(termsOf((str(service['slug']) ?? '').replaceAll('-', ' ')))]));
  }

  /** The index of the view's operations; added in chunks so a large version does not hold the event loop. */
  static async of(view: VersionView): Promise<VersionIndex> {
    const search = new MiniSearch<Document>(ENGINE);
    const documents = documentsOf(view);
    await search.addAllAsync(documents, { chunkSize: 500 });
    return new VersionIndex(view, { search, documents: new Map(documents.map((document) => [document.id, document])), latest: undefined });
  }

  /**
   * The index of `view`, this one's view with the records `written` (ids by collection) read
   * again: only the documents of the operations those records touch are removed from the engine
   * and added anew (a write costs its own operations, not the version's, which a whole build
   * does: about a second for 3,000 operations). The engine is this index's, changed in place
   * and handed on; this index answers on, from its own view, what the engine still has of its
   * operations. Built whole when this index is not the engine's latest (another patch went
   * first) or when so much changed that a whole build costs no more.
   */
  async patched(view: VersionView, written: ReadonlyMap<string, ReadonlySet<string>>): Promise<VersionIndex> {
    const changed = touchedOperations(this.view, view, written);
    if (this.#engine.latest !== this || changed.size > Math.max(PATCH_ALWAYS, this.size / 2)) return VersionIndex.of(view);
    // From here to the end, nothing awaits: no search sees the engine half changed.
    const { search, documents } = this.#engine;
    const parameterNames = (ownerId: string) => view.ownedBy('parameters', ownerId).filter((parameter) => parameterOwner(parameter) === ownerId).map((parameter) => String(parameter['name']));
    for (const id of changed) {
      const old = documents.get(id);
      if (old) {
        search.remove(old);
        documents.delete(id);
      }
    }
    const added: Document[] = [];
    for (const id of changed) {
      const operation = view.byId('operations', id);
      const document = operation && documentOf(view, operation, parameterNames);
      if (document) added.push(document);
    }
    search.addAll(added);
    for (const document of added) documents.set(document.id, document);
    return new VersionIndex(view, this.#engine, changed, this.#names);
  }

  get size(): number {
    return this.#operations.size;
  }

  /** Which operations the options keep, by their service (its id, lifecycle and owner); undefined: all. */
  #kept({ serviceId, lifecycle, owner }: SearchOptions): ((id: string) => boolean) | undefined {
    if (serviceId === undefined && lifecycle === undefined && owner === undefined) return undefined;
    return (id) => {
      const service = this.#serviceOf.get(id);
      if (serviceId !== undefined && service !== serviceId) return false;
      const record = this.view.byId('services', service);
      return (lifecycle === undefined || record?.['lifecycle'] === lifecycle) && (owner === undefined || record?.['owner'] === owner);
    };
  }

  /** The operations matching the query, best first, as endpoint hits with their score. */
  async search(options: SearchOptions): Promise<Record<string, unknown>[]> {
    return (await this.answer(options)).hits;
  }

  /** The hits and what ranked them (rank): each operation's hit form (endpointsOf) with its score. */
  async answer(options: SearchOptions): Promise<{ ranking: Ranking; hits: Record<string, unknown>[] }> {
    const { ranking, ranked } = this.rank(options);
    const endpoints = await endpointsOf(this.view, ranked.map(({ operation }) => operation));
    return { ranking, hits: ranked.map(({ score }, at) => ({ ...endpoints[at], score: Math.round(score * 1000) / 1000 })) };
  }

  /** The operations matching the query, best first, and what ranked them: fused with the vectors when the query has one and every operation's is had. */
  rank(options: SearchOptions): { ranking: Ranking; ranked: Array<{ operation: CatalogRecord; score: number }> } {
    const keep = this.#kept(options);
    // Only this index's operations: a newer index patched from this one shares its engine (see patched).
    const own = (id: string) => this.#operations.has(id) && (keep === undefined || keep(id));
    const found = this.#engine.search.search(options.query, { ...ASKING, filter: (result) => own(String(result.id)) });
    const lexical: Scored[] = this.#candidates(found.map((result) => ({ id: String(result.id), score: result.score })));
    const fusion = options.fusion ?? FUSION;
    const hybrid = options.vector !== undefined && this.vectors?.complete === true;
    const scored = hybrid
      ? [...fuse(lexical, nearest(this.vectors!, options.vector!, fusion.neighbours, keep), fusion, (id) => cosine(this.vectors!, options.vector!, id))].map(([id, score]) => ({ id, score }))
      : lexical;
    const terms = termsOf(options.query);
    const asked = distinct(terms.map(canonical));
    const intent = intentOf(terms);
    const named = new Set([...this.#serviceTerms].filter(([, own]) => own.length > 0 && own.every((term) => terms.includes(term))).map(([id]) => id));
    const ranked = scored
      .map(({ id, score }) => {
        const operation = this.#operations.get(id)!;
        const name = this.#nameOf(operation);
        const naming = namingFactor(asked, name) ** (hybrid ? fusion.namingPower : 1);
        return { operation, score: score * naming * (intent === undefined || intent === name.item ? SHAPE_FIT : 1) * (named.has(this.#serviceOf.get(id) ?? '') ? SERVICE_NAMED : 1) };
      })
      // Equal scores go by operationId, then id, so answers are stable.
      .sort((a, b) => b.score - a.score || this.#byName(a.operation.id, b.operation.id))
      .slice(0, options.limit);
    return { ranking: hybrid ? 'hybrid' : 'lexical', ranked };
  }

  /**
   * The engine's best CANDIDATES, the ones tied at the cut taken by operationId then id. The
   * engine orders equal scores as its documents were added, which differs between an index built
   * whole and one patched by writes (a patch adds its documents last): cut there, two indexes of
   * the same records would pass different candidates on (an ask like "show me as away" ties every
   * GET operation on the method's verbs), and fusion, normalising over the candidates, would rank
   * differently.
   */
  #candidates(found: readonly Scored[]): Scored[] {
    if (found.length <= CANDIDATES) return [...found];
    const last = found[CANDIDATES - 1]!.score;
    let start = CANDIDATES - 1;
    while (start > 0 && found[start - 1]!.score === last) start--;
    let end = CANDIDATES;
    while (end < found.length && found[end]!.score === last) end++;
    const tied = found.slice(start, end).sort((a, b) => this.#byName(a.id, b.id));
    return [...found.slice(0, start), ...tied.slice(0, CANDIDATES - start)];
  }

  /** Operations by operationId, then id: the order of equal scores. */
  #byName(a: string, b: string): number {
    return compare(String(this.#operations.get(a)?.['operationId']), String(this.#operations.get(b)?.['operationId'])) || compare(a, b);
  }

  #nameOf(operation: CatalogRecord): Name {
    let name = this.#names.get(operation.id);
    if (!name) {
      const operationId = distinct(termsOf(str(operation['operationId']) ?? '').map(canonical));
      const summary = distinct(termsOf(titleOf(operation)).map(canonical));
      const action = methodAction(str(operation['method']) ?? '');
      const path = str(this.view.byId('paths', operation['pathId'])?.['path']) ?? '';
      name = { operationId, summary, all: distinct([...operationId, ...summary, ...(action ? [action] : [])]), item: /\}\/?$/.test(path) };
      this.#names.set(operation.id, name);
    }
    return name;
  }

  /** An operation by `op_` id or operationId, or 404. */
  operation(ref: string): CatalogRecord {
    const operation = this.#operations.get(ref) ?? this.#byOperationId.get(ref);
    if (!operation) throw new RecordNotFound('Operation not found');
    return operation;
  }
}

/**
 * How well the query names an operation, as a factor of its engine score: from 1 to 16. Four times
 * for a name that has every asked term (not only its description), and up to four times again for a
 * name made of the asked terms and little else: "create an issue" is `issues/create` more than
 * `issues/create-comment`. Verbs count as their action; an abbreviation as its word (`repo`).
 */
function namingFactor(asked: readonly string[], name: Name): number {
  if (asked.length === 0) return 1;
  const covered = asked.filter((term) => name.all.some((own) => same(term, own))).length / asked.length;
  const precision = (own: readonly string[]) => (own.length === 0 ? 0 : own.filter((term) => asked.some((mine) => same(term, mine))).length / own.length);
  return ((1 + covered) * (1 + Math.max(precision(name.operationId), precision(name.summary)))) ** 2;
}

/** How much more an operation counts when its path's shape fits what is asked (see intentOf). */
const SHAPE_FIT = 1.5;
const LISTING = new Set(['list', 'all']);

/**
 * Whether the query asks about one item (true: update or delete one) or a collection (false:
 * create in it, list it), by the REST convention that a path ending in a parameter is one item
 * (`/customers/{id}`) and one ending in a name is the collection (`/customers`); undefined when
 * it does not say.
 */
function intentOf(terms: readonly string[]): boolean | undefined {
  const actions = new Set(terms.map(canonical));
  if (actions.has('~create') || terms.some((term) => LISTING.has(term))) return false;
  if (actions.has('~update') || actions.has('~delete')) return true;
  return undefined;
}

/** Equal terms, or one an abbreviation (a prefix of three letters or more) of the other. */
function same(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.startsWith('~') || b.startsWith('~') || a.length < 3 || b.length < 3) return false;
  return a.startsWith(b) || b.startsWith(a);
}

function distinct(terms: readonly string[]): string[] {
  return [...new Set(terms)];
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
