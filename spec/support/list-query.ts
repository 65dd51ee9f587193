// A list's query text as the service reads it: checked and typed by the list's documented
// parameters (the pipeline's check), then turned into the store's ListQuery.
import { compileQueryCheck } from '../../server/pipeline/query.ts';
import { listParameters } from '../../server/records/documentation.ts';
import { listQueryOf, type ListValues } from '../../server/records/list-query.ts';
import type { CompiledCollection, SchemaRegistry } from '../../server/schemas/registry.ts';
import type { ListQuery } from '../../server/store/records.ts';

export function listQueryReader(schemas: SchemaRegistry, collection: CompiledCollection): (versionId: string, query: Readonly<Record<string, unknown>>) => ListQuery {
  const check = compileQueryCheck(schemas.coercingAjv, listParameters(collection));
  return (versionId, query) => listQueryOf(collection, versionId, check(query) as ListValues);
}
