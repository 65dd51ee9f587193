// JSON Pointers (RFC 6901) and the references records keep (`#/components/<section>/<name>`):
// a key escaped into a pointer token and back, a pointer made of keys, and the component a
// `$ref` names. The one home for these rules; every layer may use it.

/** A key as one pointer token: `~` → `~0`, `/` → `~1`. */
export function escapeToken(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** A pointer token back to its key: `~1` → `/` first, then `~0` → `~` (so `~01` is `~1`). */
export function unescapeToken(token: string): string {
  return token.replaceAll('~1', '/').replaceAll('~0', '~');
}

/** The pointer to a place given by its keys: `pointer('paths', '/pets')` → `/paths/~1pets`. */
export function pointer(...keys: readonly (string | number)[]): string {
  return keys.map((key) => `/${escapeToken(String(key))}`).join('');
}

const COMPONENTS = '#/components/';

/**
 * The section and name of the component a `#/components/<section>/<name>` reference names, and
 * whether it points inside it (`…/schemas/Pet/properties/id` names Pet). The name is a URI
 * fragment's token: percent-decoded, then unescaped (the section is taken as written). Undefined for any other reference, and for
 * one whose percent-encoding is malformed.
 */
export function componentRef(ref: string): { section: string; name: string; inside: boolean } | undefined {
  if (!ref.startsWith(COMPONENTS)) return undefined;
  const [section, name, ...inside] = ref.slice(COMPONENTS.length).split('/');
  if (!section || name === undefined || name === '') return undefined;
  try {
    return { section, name: unescapeToken(decodeURIComponent(name)), inside: inside.length > 0 };
  } catch {
    return undefined;
  }
}
