// JSON Pointers (RFC 6901) and the references records keep (`#/components/<section>/<name>`):
// a key escaped into a pointer token and back, a pointer made of keys, and the components
// `$ref`s name. The one home for these rules; every layer may use it.

/** A key as one pointer token: `~` → `~0`, `/` → `~1`. */
export function escapeToken(key: string): string {
  // Most keys hold neither: no new strings for them (an import makes a pointer for every record).
  return key.includes('~') || key.includes('/') ? key.replaceAll('~', '~0').replaceAll('/', '~1') : key;
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

/** Every `"$ref": "<string>"` in a JSON value, with the JSON pointer to it (below `at`). */
export function* refsIn(value: unknown, at = ''): Generator<{ pointer: string; ref: string }> {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) yield* refsIn(item, `${at}/${i}`);
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string') yield { pointer: `${at}/$ref`, ref: item };
      else yield* refsIn(item, `${at}/${escapeToken(key)}`);
    }
  }
}

/** The names of the `section` components the `$ref`s anywhere in `value` name, in the order met (repeats kept). */
export function componentRefsIn(value: unknown, section: string): string[] {
  const found: string[] = [];
  for (const { ref } of refsIn(value)) {
    const named = componentRef(ref);
    if (named?.section === section) found.push(named.name);
  }
  return found;
}
