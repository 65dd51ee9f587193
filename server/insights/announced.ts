// What a reported call says of the lifecycle of what it reached: the names of the query
// parameters and request headers it sent (never their values), and whether its response
// announced the end with RFC 9745's `Deprecation` and RFC 8594's `Sunset` headers. A HAR entry
// carries both; a URL its query's names. Where the report has no such part, nothing is said.

/** Parameters sent, as `in:name` (`query:market`, `header:x-api-version`, header names in lower case). */
export type Sent = string[];

/** Whether the response carried each header; undefined where the report has no response headers. */
export interface Announced { deprecation: boolean; sunset: boolean }

interface NameValue { name?: unknown }

const names = (list: unknown): string[] => (Array.isArray(list) ? list : [])
  .map((item: NameValue | null) => (item && typeof item.name === 'string' ? item.name : undefined))
  .filter((name): name is string => name !== undefined && name !== '');

/** The query parameter names of a URL (absolute, or a path with a query). */
export function queryNames(url: string): Sent {
  const start = url.indexOf('?');
  if (start < 0) return [];
  const query = url.slice(start + 1).split('#')[0]!;
  return [...new Set([...new URLSearchParams(query).keys()])].map((name) => `query:${name}`);
}

/** What a HAR entry sent and what its response announced. */
export function fromHarEntry(entry: { request: { url: string; queryString?: unknown; headers?: unknown }; response: { headers?: unknown } }): { sent: Sent; announced?: Announced } {
  const query = Array.isArray(entry.request.queryString) ? names(entry.request.queryString).map((name) => `query:${name}`) : queryNames(entry.request.url);
  const headers = names(entry.request.headers).map((name) => `header:${name.toLowerCase()}`);
  const sent = [...new Set([...query, ...headers])];
  if (!Array.isArray(entry.response.headers)) return { sent };
  const answered = new Set(names(entry.response.headers).map((name) => name.toLowerCase()));
  return { sent, announced: { deprecation: answered.has('deprecation'), sunset: answered.has('sunset') } };
}
