// The refusals no schema can state, since they depend on what the version holds, written as a
// schemathesis baseline so that a run fails on anything else: derived from the route table, so a
// new collection needs no change here. Each entry says why.
import { openApiPath } from '../../server/openapi/document.ts';
import { routeTable, type RecordRoute as Route } from '../../server/records/table.ts';
import type { SchemaRegistry, CompiledCollection } from '../../server/schemas/registry.ts';

interface BaselineEntry {
  operation: string;
  check: string;
  failure: string;
  signature: string;
  reason: string;
}

/** Keywords of a record schema that are rules across its fields (as in server/openapi/request-bodies.ts). */
const RULES_ACROSS_FIELDS = ['allOf', 'anyOf', 'oneOf', 'not', 'if', 'dependentSchemas', 'dependentRequired'];

const CURSOR = 'A list `cursor` under a sort other than `id` must name a record that exists or a nextCursor handed out in the last 15 minutes; a generated id names neither (documented on the parameter: 400).';
const MERGED = 'An update is checked as the record it makes: a field valid on its own can break a rule across fields (scope, if/then, dependentSchemas) with the stored ones (documented on the operation: 400).';

export function conformanceBaseline(schemas: SchemaRegistry): { format_version: 1; entries: BaselineEntry[] } {
  const entries = routeTable(schemas.collections).flatMap((route): BaselineEntry[] => {
    if (route.action.name === 'list') return [accepted(route, CURSOR)];
    if (route.action.name === 'update' && hasRulesAcrossFields(route.collection)) return [accepted(route, MERGED)];
    return [];
  });
  return { format_version: 1, entries };
}

function accepted(route: Route, reason: string): BaselineEntry {
  return { operation: `${route.action.method} ${openApiPath(route.path)}`, check: 'positive_data_acceptance', failure: 'RejectedPositiveData', signature: '400', reason };
}

function hasRulesAcrossFields(collection: CompiledCollection): boolean {
  return collection.scope !== undefined || RULES_ACROSS_FIELDS.some((keyword) => keyword in collection.schema);
}
