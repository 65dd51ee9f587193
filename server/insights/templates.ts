// Path templates matched as templates: a trie keyed on segments, where every character outside
// `{…}` is literal (never a regular expression or a wildcard, whatever a tenant's description
// holds) and a `{param}` stands for one non-empty segment or part of one (`/files/{name}.{ext}`).
// At each segment a literal wins over a segment mixing literals and parameters, which wins over a
// bare parameter, and the search backs up only when a branch has no template for the call: so the
// most literal template wins, segment by segment (`/pets/mine` before `/pets/{petId}`, and
// `/a/x/{p}` before `/a/{p}/b`). A call visits each trie node at most once and each segment is
// scanned with plain string search, so matching costs the URL's length times the templates that
// share its prefix, never more.

/** A segment mixing literals and parameters: `{name}.{ext}` is literals `['', '.', '']`. */
interface Pattern {
  literals: string[];
  names: string[];
}

interface Node<T> {
  literals: Map<string, Node<T>>;
  patterns: Array<{ pattern: Pattern; node: Node<T> }>;
  parameter: { name: string; node: Node<T> } | undefined;
  /** What each method's template at this node holds. */
  ends: Map<string, T>;
}

/** Work done by one look-up: trie nodes visited. */
export interface Steps {
  count: number;
}

const node = <T>(): Node<T> => ({ literals: new Map(), patterns: [], parameter: undefined, ends: new Map() });

export class TemplateTrie<T> {
  readonly #root = node<T>();

  /** Adds `template` for `method`; false when that method already has a template of this shape (the first stays). */
  add(method: string, template: string, value: T): boolean {
    let at = this.#root;
    for (const segment of segmentsOf(template)) at = child(at, segment);
    if (at.ends.has(method)) return false;
    at.ends.set(method, value);
    return true;
  }

  /** What the most literal template of `method` matching `path` holds. */
  find(method: string, path: string, steps: Steps = { count: 0 }): T | undefined {
    return search(this.#root, method, segmentsOf(path).map(decoded), 0, steps);
  }

  /**
   * The path as the documented templates see it, for a path no template matches: each segment
   * the templates have as a literal kept, each one they have as a parameter at that place given
   * the template's text (`/playlists/{playlist_id}/…`), following literals first; undefined where
   * the path leaves every template.
   */
  shape(path: string): Array<string | undefined> {
    let at: Node<T> | undefined = this.#root;
    return segmentsOf(path).map((raw) => {
      if (!at) return undefined;
      const segment = decoded(raw);
      const literal = at.literals.get(segment);
      if (literal) {
        at = literal;
        return raw;
      }
      const pattern = at.patterns.find((entry) => matches(entry.pattern, segment));
      if (pattern) {
        at = pattern.node;
        return textOf(pattern.pattern);
      }
      const parameter: { name: string; node: Node<T> } | undefined = at.parameter;
      at = parameter?.node;
      return parameter && segment !== '' ? `{${parameter.name}}` : undefined;
    });
  }
}

/** A path's segments below the leading slash; a trailing slash is ignored. */
export function segmentsOf(path: string): string[] {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  const segments = trimmed.split('/');
  if (segments[0] === '') segments.shift();
  return segments.length === 1 && segments[0] === '' ? [] : segments;
}

function child<T>(at: Node<T>, segment: string): Node<T> {
  const parts = segment.split(/(\{[^{}]*\})/);
  const names = parts.filter((_, i) => i % 2 === 1).map((part) => part.slice(1, -1));
  if (names.length === 0) return getOrAdd(at.literals, segment, node<T>);
  if (parts.length === 3 && parts[0] === '' && parts[2] === '') {
    at.parameter ??= { name: names[0]!, node: node<T>() };
    return at.parameter.node;
  }
  const literals = parts.filter((_, i) => i % 2 === 0);
  const same = at.patterns.find((entry) => entry.pattern.literals.join('\u0000') === literals.join('\u0000'));
  if (same) return same.node;
  const added = { pattern: { literals, names }, node: node<T>() };
  at.patterns.push(added);
  // More literal characters first: `{name}.tar.gz` before `{name}.{ext}`.
  at.patterns.sort((a, b) => literalLength(b.pattern) - literalLength(a.pattern));
  return added.node;
}

function search<T>(at: Node<T>, method: string, segments: readonly string[], index: number, steps: Steps): T | undefined {
  steps.count++;
  if (index === segments.length) return at.ends.get(method);
  const segment = segments[index]!;
  const literal = at.literals.get(segment);
  const viaLiteral = literal && search(literal, method, segments, index + 1, steps);
  if (viaLiteral !== undefined) return viaLiteral;
  for (const { pattern, node: next } of at.patterns) {
    if (!matches(pattern, segment)) continue;
    const found = search(next, method, segments, index + 1, steps);
    if (found !== undefined) return found;
  }
  return at.parameter && segment !== '' ? search(at.parameter.node, method, segments, index + 1, steps) : undefined;
}

/**
 * Whether a segment has the pattern's literals in order, each parameter non-empty: the first
 * literal a prefix, the last a suffix, each one between at its first place after the previous.
 */
export function matches({ literals }: Pattern, segment: string): boolean {
  const first = literals[0]!;
  const last = literals[literals.length - 1]!;
  const parameters = literals.length - 1;
  if (segment.length < first.length + last.length + parameters || !segment.startsWith(first) || !segment.endsWith(last)) return false;
  const end = segment.length - last.length;
  let at = first.length;
  for (const literal of literals.slice(1, -1)) {
    const found = segment.indexOf(literal, at + 1);
    if (found < 0 || found + literal.length >= end) return false;
    at = found + literal.length;
  }
  return end - at >= 1;
}

function textOf({ literals, names }: Pattern): string {
  return literals.map((literal, i) => (i < names.length ? `${literal}{${names[i]}}` : literal)).join('');
}

function literalLength({ literals }: Pattern): number {
  return literals.reduce((sum, literal) => sum + literal.length, 0);
}

/** Percent-decoded, as a router compares; a malformed escape is compared as sent. */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function getOrAdd<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) map.set(key, value = make());
  return value;
}
