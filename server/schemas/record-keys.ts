// The key a record has under fields a descriptor declares (`naturalKey`, `importKey`), as one
// string: the same function makes the store's stored `_key` and the key an import matches by.

/**
 * The values of `fields` as a JSON array, a missing one as null (so two requests of one
 * operation without contentMediaType collide). A dotted field reaches into objects:
 * `kvStorage.x-catalog.service` (keys like `x-catalog` hold no dots).
 */
export function keyOf(fields: readonly string[], record: Readonly<Record<string, unknown>>): string {
  return JSON.stringify(fields.map((field) => fieldAt(record, field) ?? null));
}

/** The value at a top-level or dotted field; undefined where any step is missing or not an object. */
export function fieldAt(record: Readonly<Record<string, unknown>>, dotted: string): unknown {
  let value: unknown = record;
  for (const part of dotted.split('.')) value = value && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
  return value;
}
