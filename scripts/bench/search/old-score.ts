// The hand-written scorer search used before its index (server/search/ranking.ts), kept only so
// that the search benchmark can compare the two. A query is words; a field matches a word when one
// of the field's words equals it (case-insensitive; camelCase, snake_case, kebab-case and path
// segments split), or when the word is a field word's prefix of four letters or more. The score is
// the sum over query words of the weights of the fields that match it. Ties go by operationId.
// Its words are split as the index splits them (server/search/text.ts), which is how it split them.
import { wordsOf } from '../../../server/search/text.ts';

/** Heavier fields count more: operationId and path above summary above description. */
export const WEIGHTS = {
  operationId: 10,
  path: 10,
  summary: 5,
  tags: 3,
  parameters: 3,
  description: 1,
} as const;

export type Field = keyof typeof WEIGHTS;
export type Searchable = Record<Field, string | readonly string[] | undefined>;

const MIN_PREFIX = 4;

/** The distinct words of a query, in order; none for an empty or blank query. */
export function queryWords(query: string): string[] {
  return [...new Set(wordsOf(query))];
}

function matches(word: string, fieldWords: ReadonlySet<string>): boolean {
  if (fieldWords.has(word)) return true;
  if (word.length < MIN_PREFIX) return false;
  for (const candidate of fieldWords) if (candidate.startsWith(word)) return true;
  return false;
}

/** The score of one operation's searchable text for the query's words; 0 when nothing matches. */
export function score(words: readonly string[], searchable: Searchable): number {
  const fields = (Object.keys(WEIGHTS) as Field[]).map((field) => {
    const value = searchable[field];
    const text = Array.isArray(value) ? value.join(' ') : (value as string | undefined) ?? '';
    return { weight: WEIGHTS[field], words: new Set(wordsOf(text)) };
  });
  let total = 0;
  for (const word of words) for (const field of fields) if (matches(word, field.words)) total += field.weight;
  return total;
}

/** The best `limit` of scored items: highest score first, then by `key` for stable answers. */
export function ranked<T>(items: readonly { item: T; score: number; key: string }[], limit: number): { item: T; score: number }[] {
  return items
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .slice(0, limit)
    .map(({ item, score: value }) => ({ item, score: value }));
}
