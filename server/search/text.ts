// How text becomes search terms, the same for what is indexed and what is asked: words split at
// anything not a letter or digit and at camelCase humps, stop words dropped (the `stopword`
// package's English list), each word stemmed by Porter2 (`porter2`), so `repositories` and
// `repository` are one term. And the verbs people say for each HTTP method.
import { stem } from 'porter2';
import { eng } from 'stopword';

/**
 * The words people use for what an operation does, by the action each HTTP method performs. A
 * document's method field holds them, so "open a pull request" meets POST and "remove a label"
 * meets DELETE whatever the summary's own verb; and a verb in a query counts as its action when
 * it is compared with an operation's name (ranking.ts), so "open" is as good as "create".
 */
export const ACTION_VERBS = {
  read: ['get', 'list', 'find', 'show', 'read', 'retrieve', 'fetch', 'view', 'search'],
  create: ['create', 'add', 'new', 'open', 'make', 'send', 'submit', 'start', 'run'],
  update: ['update', 'edit', 'change', 'set', 'modify', 'replace'],
  delete: ['delete', 'remove', 'cancel', 'destroy', 'drop', 'erase'],
} as const;
// Not `post`, `put` or `patch`: in operationIds (`PostCustomersCustomer`) they name the method,
// not what the operation does (that one updates a customer), and people rarely say them.

type Action = keyof typeof ACTION_VERBS;

const METHOD_ACTIONS: Readonly<Record<string, Action>> = { get: 'read', post: 'create', put: 'update', patch: 'update', delete: 'delete' };

// The action verbs are never stop words, whatever the list says (it has `get` and `make`).
const VERBS = new Set<string>(Object.values(ACTION_VERBS).flat());
const STOP_WORDS = new Set(eng.filter((word) => !VERBS.has(word)));
/** Stemmed verb → its action, marked so that it never equals a plain term. */
const ACTION_OF = new Map(Object.entries(ACTION_VERBS).flatMap(([action, verbs]) => verbs.map((verb) => [stem(verb), `~${action}`] as const)));

/** The lower-case words of a text: split on anything not a letter or digit, and at camelCase humps. */
export function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

/**
 * Terms of the words seen, so that each distinct word is stemmed once: a version's index holds
 * millions of words and tens of thousands of distinct ones (stemming was a tenth of a first
 * build). Emptied when full, so that a stream of unusual words cannot grow it without bound.
 */
const TERMS = new Map<string, string | null>();
const TERMS_HELD = 200_000;

/** One word as a term: null for a stop word, else its stem. */
export function termOf(word: string): string | null {
  const known = TERMS.get(word);
  if (known !== undefined) return known;
  const lower = word.toLowerCase();
  const term = STOP_WORDS.has(lower) ? null : stem(lower);
  if (TERMS.size >= TERMS_HELD) TERMS.clear();
  TERMS.set(word, term);
  return term;
}

/** The terms of a text, in order. */
export function termsOf(text: string): string[] {
  return wordsOf(text).map(termOf).filter((term): term is string => term !== null);
}

/** The text of a method field: the method and the verbs people use for its action. */
export function methodText(method: string): string {
  const lower = method.toLowerCase();
  const action = METHOD_ACTIONS[lower];
  return [lower, ...(action ? ACTION_VERBS[action] : [])].join(' ');
}

/** A term as compared with names: a verb as its action (`~create` for create, add, open...), else itself. */
export function canonical(term: string): string {
  return ACTION_OF.get(term) ?? term;
}

/** The action of a method as canonical() gives it, if it has one. */
export function methodAction(method: string): string | undefined {
  const action = METHOD_ACTIONS[method.toLowerCase()];
  return action && `~${action}`;
}
