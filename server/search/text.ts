// How text becomes search terms, the same for what is indexed and what is asked: words split at
// anything not a letter or digit and at camelCase humps, stop words dropped (the `stopword`
// package's English list), each word stemmed by Porter2 (`porter2`), so `repositories` and
// `repository` are one term. And the verbs people say for each HTTP method.
import { stem } from 'porter2';
import { eng } from 'stopword';

/**
 * The words people use for what a method does. A document's method field holds them, so "open a
 * pull request" meets POST and "remove a label" meets DELETE whatever the summary's own verb.
 */
export const METHOD_VERBS: Readonly<Record<string, readonly string[]>> = {
  get: ['get', 'list', 'find', 'show', 'read', 'retrieve', 'fetch', 'view', 'search'],
  post: ['create', 'add', 'new', 'open', 'make', 'post', 'send', 'submit', 'start', 'run'],
  put: ['update', 'edit', 'change', 'set', 'modify', 'replace', 'put'],
  patch: ['update', 'edit', 'change', 'set', 'modify', 'patch'],
  delete: ['delete', 'remove', 'cancel', 'destroy', 'drop', 'erase'],
};

// The method verbs are never stop words, whatever the list says (it has `get` and `make`).
const VERBS = new Set(Object.values(METHOD_VERBS).flat());
const STOP_WORDS = new Set(eng.filter((word) => !VERBS.has(word)));

/** The lower-case words of a text: split on anything not a letter or digit, and at camelCase humps. */
export function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

/** One word as a term: null for a stop word, else its stem. */
export function termOf(word: string): string | null {
  const lower = word.toLowerCase();
  return STOP_WORDS.has(lower) ? null : stem(lower);
}

/** The terms of a text, in order. */
export function termsOf(text: string): string[] {
  return wordsOf(text).map(termOf).filter((term): term is string => term !== null);
}

/** The text of a method field: the method and the verbs people use for it. */
export function methodText(method: string): string {
  const lower = method.toLowerCase();
  return [lower, ...(METHOD_VERBS[lower] ?? [])].join(' ');
}
