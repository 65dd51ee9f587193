// Plain JSON values, for every layer: the type, the object test, deep equality, the residual
// (what an OpenAPI object holds that a record's fields do not render back), merging it back.
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/**
 * Sets `key` of `object` as data. Plain assignment of `__proto__` sets the prototype instead and
 * the key is lost, so every copy of a member whose key comes from data goes through here.
 */
export function setMember(object: object, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  else (object as Record<string, unknown>)[key] = value;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Equal as JSON values; object key order ignored. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  if (!isObject(a) || !isObject(b)) return false;
  const aKeys = Object.keys(a).filter((key) => a[key] !== undefined);
  const bKeys = Object.keys(b).filter((key) => b[key] !== undefined);
  return aKeys.length === bKeys.length && aKeys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]));
}

/** What `original` has that `rendered` lacks or renders differently (objects compared key by key). */
export function residual(original: JsonObject, rendered: JsonObject): JsonObject {
  const left: JsonObject = {};
  for (const [key, value] of Object.entries(original)) {
    if (value === undefined) continue;
    const other = rendered[key];
    if (sameJson(value, other)) continue;
    if (isObject(value) && isObject(other)) {
      const inner = residual(value, other);
      if (Object.keys(inner).length > 0) setMember(left, key, inner);
    } else {
      setMember(left, key, value);
    }
  }
  return left;
}

/** `base` with `extra` laid over it: objects merged key by key, anything else replaced. */
export function merge(base: JsonObject, extra: JsonObject): JsonObject {
  const out: JsonObject = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    const under = Object.hasOwn(out, key) ? out[key] : undefined;
    setMember(out, key, isObject(under) && isObject(value) ? merge(under, value) : value);
  }
  return out;
}

/** The object without undefined members (records and documents never hold undefined). */
export function defined(object: Record<string, unknown>): JsonObject {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as JsonObject;
}

export function without(object: JsonObject, ...keys: string[]): JsonObject {
  const out = { ...object };
  for (const key of keys) delete out[key];
  return out;
}
