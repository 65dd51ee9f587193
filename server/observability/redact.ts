// Redaction of credentials in what we log: a URL keeps its shape, but any query parameter that
// names a credential, and any API key secret or JWT anywhere (raw or percent-encoded), is
// replaced by [REDACTED]. Headers are never logged at all (see request-log.ts).

export const REDACTED = '[REDACTED]';

// Parameter names that carry credentials in the wild (OAuth, API gateways, signed URLs).
const CREDENTIAL_NAME = /^(access_?token|id_?token|refresh_?token|token|auth|authorization|bearer|api_?key|apikey|key|jwt|secret|client_?secret|password|passwd|pwd|session|sessionid|sig|signature|credentials?|x-amz-signature|x-amz-credential|x-amz-security-token)$/i;
// Anything whose name merely contains one of these words is treated as a credential too.
const CREDENTIAL_WORD = /token|secret|passw|api_?key|credential|signature/i;
// A project API key secret, or a compact JWS/JWE (base64url header starting `eyJ`).
const SECRET_VALUE = /catk_[\w-]*|eyJ[\w-]*\.[\w-]*(\.[\w-]*)*/gi;

/** `url` (a request target: path and query) with every credential replaced by [REDACTED]. */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const pathPart = queryAt === -1 ? url : url.slice(0, queryAt);
  const query = queryAt === -1 ? undefined : url.slice(queryAt + 1);
  const path = pathPart.split('/').map(redactSegment).join('/');
  if (query === undefined) return path;
  return `${path}?${query.split('&').map(redactParameter).join('&')}`;
}

function redactParameter(pair: string): string {
  const equals = pair.indexOf('=');
  const rawName = equals === -1 ? pair : pair.slice(0, equals);
  const name = decoded(rawName);
  if (hasSecret(name)) return REDACTED;
  if (equals === -1) return pair;
  if (CREDENTIAL_NAME.test(name) || CREDENTIAL_WORD.test(name)) return `${rawName}=${REDACTED}`;
  return `${rawName}=${redactSegment(pair.slice(equals + 1))}`;
}

/** A path segment or a parameter value: kept unless it holds a secret, then secrets replaced. */
function redactSegment(raw: string): string {
  const plain = decoded(raw);
  if (!hasSecret(plain)) return raw;
  return plain.replace(SECRET_VALUE, REDACTED);
}

function hasSecret(text: string): boolean {
  SECRET_VALUE.lastIndex = 0;
  return SECRET_VALUE.test(text);
}

function decoded(text: string): string {
  // Most URLs have no escapes: nothing to decode (this runs for every segment of every request).
  if (!text.includes('%') && !text.includes('+')) return text;
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    // Not valid percent-encoding: judge the text as it is, with any `%5F`-style escapes read leniently.
    return text.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
}
