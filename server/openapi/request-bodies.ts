// The bodies the record routes take, derived from each record schema as the service enforces them
// (records/record-body.ts), so a field a schema author adds needs no change here: `versionId`
// comes from the route, `updatedAt` is ignored, a create may choose its `id`, a replace or update
// takes its id from the route, and an update is any subset of the fields.
import type { CompiledCollection } from '../schemas/registry.ts';
import { absoluteRefs } from './components.ts';
import type { Schema } from '../routes/documentation.ts';

export type BodyKind = 'create' | 'replace' | 'update';

/** Keywords of a record schema that say what one record is, not which fields it has. */
const OWN_KEYWORDS = new Set(['$schema', '$id', '$defs', 'title', 'description', 'examples', 'properties', 'required', 'type', 'additionalProperties']);
/** Fields the service sets or takes from the route. */
const ASSIGNED = new Set(['id', 'versionId', 'updatedAt']);

const VERSION_ID: Schema = {
  description: 'Taken from the route: leave it out. Only the routed version\'s own id is tolerated (so a record read with GET can be sent back); any other value is 400.',
  not: {},
};
const ROUTE_ID: Schema = {
  description: 'Taken from the route: leave it out. Only the route\'s own id is tolerated (so a record read with GET can be sent back); any other value is 400.',
  not: {},
};
const UPDATED_AT: Schema = { description: 'Ignored, whatever its value: assigned by the service, so a record read with GET can be sent back.' };

/** The component name of a body schema: `PathCreate`, `PathReplace`, `PathUpdate`. */
export function bodyComponentName(collection: CompiledCollection, kind: BodyKind): string {
  return `${collection.record.replace(/[^A-Za-z0-9]/g, '')}${kind[0]!.toUpperCase()}${kind.slice(1)}`;
}

/** The body schema of `kind` for the collection, with `$ref`s as absolute `$id`s of schemas/. */
export function bodySchema(collection: CompiledCollection, kind: BodyKind): Schema {
  const record = collection.schema;
  const fieldRef = (field: string): Schema => ({ $ref: `${collection.schemaId}#/properties/${field}` });
  const assigned: Record<string, Schema> = { id: kind === 'create' ? fieldRef('id') : ROUTE_ID, versionId: VERSION_ID, updatedAt: UPDATED_AT };
  // The service applies these rules whether or not the record schema has the field.
  const properties: Record<string, Schema> = { ...Object.fromEntries([...collection.fields].map((field) => [field, assigned[field] ?? fieldRef(field)])), versionId: VERSION_ID, updatedAt: UPDATED_AT };
  const whole = kind !== 'update';
  // A whole record's rules across fields (allOf, dependentSchemas...) hold for the body; an
  // update is checked as the record it makes, so those rules cannot be stated for the patch alone.
  const rules = whole ? Object.fromEntries(Object.entries(record).filter(([keyword]) => !OWN_KEYWORDS.has(keyword))) : {};
  const required = whole ? ((record['required'] ?? []) as string[]).filter((field) => !ASSIGNED.has(field)) : [];
  const scope = whole ? scopeRules(collection) : [];
  const own = absoluteRefs(rules, collection.schemaId);
  const allOf = [...((own['allOf'] ?? []) as Schema[]), ...scope];
  return {
    title: `${collection.record} (${kind})`,
    description: DESCRIPTIONS[kind](collection.record),
    type: 'object',
    additionalProperties: false,
    ...(required.length > 0 && { required }),
    properties,
    ...own,
    ...(allOf.length > 0 && { allOf }),
  };
}

/** The collection's scope rule (schemas/collections.json), which the service checks beside the schema: between min and max of its fields set. */
function scopeRules(collection: CompiledCollection): Schema[] {
  const { scope } = collection;
  if (!scope) return [];
  const rules: Schema[] = [];
  const description = `Set ${scope.min === scope.max ? `exactly ${scope.min}` : `${scope.min} to ${scope.max}`} of ${scope.fields.join(', ')}.`;
  if (scope.min > 0) rules.push({ description, anyOf: subsets(scope.fields, scope.min).map((fields) => ({ required: fields })) });
  if (scope.max < scope.fields.length) rules.push({ description, not: { anyOf: subsets(scope.fields, scope.max + 1).map((fields) => ({ required: fields })) } });
  return rules;
}

/** Every subset of `size` of the items, in order. */
function subsets(items: readonly string[], size: number): string[][] {
  if (size === 0) return [[]];
  return items.flatMap((item, index) => subsets(items.slice(index + 1), size - 1).map((rest) => [item, ...rest]));
}

const DESCRIPTIONS: Readonly<Record<BodyKind, (record: string) => string>> = {
  create: (record) => `A ${record} to create: its fields, \`id\` optional (generated when left out).`,
  replace: (record) => `The whole ${record}: fields left out are gone afterwards (defaults re-applied).`,
  update: (record) => `Any subset of the ${record}'s fields; each replaces that field's value, and the ${record} it makes must still be valid (else 400).`,
};
