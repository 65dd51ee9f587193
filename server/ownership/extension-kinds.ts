// The record kinds a schema author maps from a vendor extension (`extension` in
// schemas/collections.json), with no code: the items of a list such as `x-codeSamples` on a
// Service's document, a Path Item or an Operation, each a record of the kind. An item's members
// that are fields of the record are its fields; the import keeps the rest with the record (as
// for any kind), and the export writes the list back on its parent's object.
import { defined, isObject, type JsonObject } from '../json/values.ts';
import type { CompiledCollection } from '../schemas/registry.ts';

type Fields = Record<string, unknown>;

/** Fields of every record that are the catalog's, never a document's. */
export const SYSTEM_FIELDS: ReadonlySet<string> = new Set(['id', 'versionId', 'updatedAt', 'kvStorage']);

/** The kinds whose OpenAPI objects may carry an extension's list: a Service (the document), a Path (its Path Item), an Operation. */
const CARRIERS = ['services', 'paths', 'operations'] as const;
export type Carrier = (typeof CARRIERS)[number];

export interface ExtensionKind {
  readonly collection: CompiledCollection;
  /** The vendor extension holding the list, `x-…`. */
  readonly extension: string;
  /** The kind whose objects carry the list. */
  readonly parent: Carrier;
  /** The record's field naming its parent, by id. */
  readonly parentField: string;
  /** The record fields an item's members give, in the record schema's order. */
  readonly fields: readonly string[];
}

/** The kinds of `collections` that declare an extension, each checked: one reference, to a kind that carries extensions. */
export function extensionKinds(collections: Iterable<CompiledCollection>): ExtensionKind[] {
  return [...collections].filter(({ extension }) => extension !== undefined).map(extensionKind);
}

function extensionKind(collection: CompiledCollection): ExtensionKind {
  const references = [...collection.references];
  const [parentField, parent] = references[0] ?? [];
  if (references.length !== 1 || !CARRIERS.includes(parent as Carrier)) {
    throw new Error(`OpenAPI extension of ${collection.name}: its record needs exactly one reference, to one of ${CARRIERS.join(', ')}`);
  }
  const fields = [...collection.fields].filter((field) => field !== parentField && !SYSTEM_FIELDS.has(field) && !collection.keptOnImport.has(field));
  return { collection, extension: collection.extension!, parent: parent as Carrier, parentField: parentField!, fields };
}

/** The extensions of `parent`'s kind that hold a list on this object: what becomes records, not the parent's. */
export function listsOn(kinds: readonly ExtensionKind[], parent: Carrier, object: JsonObject): string[] {
  return kinds.filter((kind) => kind.parent === parent && Array.isArray(object[kind.extension])).map(({ extension }) => extension);
}

/** The items of the kind's list on this object, each with its record fields (its parent's id added) and where it is. */
export function itemsOn(kind: ExtensionKind, object: JsonObject, parentId: string): Array<{ fields: Fields; original: JsonObject; index: number }> {
  const list = object[kind.extension];
  if (!Array.isArray(list)) return [];
  return list.map((item, index) => {
    const original = isObject(item) ? item : {};
    const fields: Fields = { [kind.parentField]: parentId };
    for (const field of kind.fields) if (original[field] !== undefined) fields[field] = original[field];
    return { fields, original, index };
  });
}

/** An item as the record renders it: its mapped fields. */
export function renderItem(kind: ExtensionKind, record: Fields): JsonObject {
  return defined(Object.fromEntries(kind.fields.map((field) => [field, record[field]]))) as JsonObject;
}
