// The record kinds the catalog's own code reads by name: the OpenAPI mapping (import, export),
// search, pages, scores and changes name these and no others. Named here once, as a type: a
// store or a view is asked for one of them by a name the compiler checks (storeOf, VersionView),
// and the start-up refuses schemas/collections.json without one (descriptions/kinds.ts
// checkKinds). Every other kind is data to the code: a schema author adds one with no code.
export const KIND_NAMES = ['services', 'resources', 'paths', 'operations', 'parameters', 'requests', 'responses', 'servers', 'security-schemes', 'headers', 'examples'] as const;

export type KindName = typeof KIND_NAMES[number];

/** The named kinds a collection list lacks (the start-up's check). */
export function missingKinds(names: Iterable<string>): KindName[] {
  const present = new Set(names);
  return KIND_NAMES.filter((name) => !present.has(name));
}
