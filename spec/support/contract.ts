// The contract's tables, as the specs read them (shared/spec/catalog-interface.md and
// shared/design/decisions.md): the record kinds it names, their natural keys, and the rule of
// their not-found texts. Specs walk the kinds the schemas declare; these say only what the
// contract requires of the kinds it names, so a kind a schema author adds breaks none of them.
import { RecordNotFound } from '../../server/errors.ts';
import type { CompiledCollection } from '../../server/schemas/registry.ts';

/** decisions.md, The whole catalog: the contract's kinds, in its order. */
export const CONTRACT_KINDS: readonly string[] = ['services', 'resources', 'paths', 'operations', 'parameters', 'requests', 'responses', 'servers', 'security-schemes', 'headers', 'examples'];

/** decisions.md, The whole catalog: the natural keys of the contract's kinds that have one. */
export const CONTRACT_NATURAL_KEYS: Readonly<Record<string, readonly string[]>> = {
  services: ['slug'],
  paths: ['serviceId', 'path'],
  operations: ['pathId', 'method'],
  parameters: ['pathId', 'operationId', 'in', 'name'],
  requests: ['operationId', 'contentMediaType'],
  responses: ['operationId', 'statusCode', 'contentMediaType'],
  'security-schemes': ['serviceId', 'name'],
};

/**
 * The not-found text of a collection, the one table every spec reads: the rule of
 * server/errors.ts (`<Kind> not found`), held to the contract's own words by spec/unit/schemas.spec.ts.
 * Read from the record's name, never from the descriptor, so a descriptor that strays is caught.
 */
export function notFoundOf(collection: Pick<CompiledCollection, 'record'>): string {
  return RecordNotFound.textOf(collection.record);
}
