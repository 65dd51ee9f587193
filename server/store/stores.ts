// The record stores of the service, one per collection of schemas/collections.json, by name.
import type { KindName } from '../schemas/kind-names.ts';
import type { RecordStore } from './records.ts';

export type Stores = ReadonlyMap<string, RecordStore>;

/**
 * The store of a collection the code names (services, paths, operations...). That
 * schemas/collections.json has each kind the import, export, search and insights name is checked
 * once at start-up (descriptions/kinds.ts checkKinds, from boot.ts); this says which one is
 * missing where a schema author removed it anyway.
 */
export function storeOf<Store = RecordStore>(stores: ReadonlyMap<string, Store>, name: KindName): Store {
  return collectionStore(stores, name);
}

/** The store of a collection named by data (a descriptor, a kind walked over), not by the code. */
export function collectionStore<Store = RecordStore>(stores: ReadonlyMap<string, Store>, name: string): Store {
  const store = stores.get(name);
  if (!store) throw new Error(`schemas/collections.json has no ${name} collection`);
  return store;
}
