// Integrity of one version: the references that name no record. References are not enforced
// on write (clients and sync tools write in any order), so this is where they are checked:
// the reference fields each descriptor declares (field → collection), and the OpenAPI `$ref`s
// `#/components/<section>/<name>` anywhere in a record, against the collections declared as
// that section's components (Resources for `schemas`, Headers for `headers`).
import { componentRef, escapeToken, refsIn } from '../json/pointer.ts';
import type { DanglingReference } from '../schemas/generated/types.ts';
import type { Outcome } from '../routes/route.ts';
import type { CompiledCollection } from '../schemas/registry.ts';
import type { CatalogRecord, RecordStore } from '../store/records.ts';
import type { ResolvedVersion } from '../routes/route.ts';
import { collectionStore } from '../store/stores.ts';

/** At most this many dangling references are listed per collection; `truncated` says when more exist. */
export const INTEGRITY_CAP = 1000;

/** A reference that leads nowhere (schemas/api/integrity.json). */
export type Dangling = DanglingReference;

/** The integrity report of a whole version: every reference that leads nowhere, per collection. */
export async function integrity({ version, stores }: { version: ResolvedVersion; stores: ReadonlyMap<string, RecordStore> }): Promise<Outcome> {
  const { versionId } = version;
  const all = [...stores.values()].map((store) => store.collection);
  // What exists, loaded once per target: ids of referenced collections, names of components.
  const ids = new Map<string, Set<unknown>>();
  for (const target of new Set(all.flatMap((collection) => [...collection.references.values()]))) {
    const store = stores.get(target);
    ids.set(target, store ? await store.valuesOf(versionId, 'id') : new Set());
  }
  const components = new Map<string, { target: string; names: Set<unknown> }>();
  for (const collection of all) {
    if (!collection.component) continue;
    const names = await collectionStore(stores, collection.name).valuesOf(versionId, collection.component.key);
    components.set(collection.component.section, { target: collection.name, names });
  }

  const collections: Record<string, { dangling: Dangling[]; truncated: boolean }> = {};
  for (const store of stores.values()) {
    const dangling: Dangling[] = [];
    let truncated = false;
    for await (const record of store.records(versionId)) {
      for (const found of danglingIn(store.collection, record, ids, components)) {
        if (dangling.length < INTEGRITY_CAP) dangling.push(found);
        else truncated = true;
      }
    }
    // Sorted so that two reads of an unchanged version answer the same.
    dangling.sort((a, b) => (a.id === b.id ? (a.pointer ?? a.field).localeCompare(b.pointer ?? b.field) : a.id < b.id ? -1 : 1));
    collections[store.collection.name] = { dangling, truncated };
  }
  return { status: 200, body: { collections } };
}

function* danglingIn(
  collection: CompiledCollection,
  record: CatalogRecord,
  ids: ReadonlyMap<string, Set<unknown>>,
  components: ReadonlyMap<string, { target: string; names: Set<unknown> }>,
): Generator<Dangling> {
  for (const [field, target] of collection.references) {
    const value = record[field];
    if (typeof value === 'string' && !ids.get(target)!.has(value)) yield { id: record.id, field, target };
  }
  for (const [field, value] of Object.entries(record)) {
    for (const { pointer, ref } of refsIn(value, `/${escapeToken(field)}`)) {
      const named = componentRef(ref);
      const component = named && !named.inside ? components.get(named.section) : undefined;
      if (!component) continue; // another kind of $ref (external, into a component, or a section no collection holds)
      if (!component.names.has(named!.name)) yield { id: record.id, field, pointer, target: component.target };
    }
  }
}
