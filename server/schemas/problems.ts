// The one place that turns Ajv errors into `details` entries: `{ field, message }`, the field
// a JSON pointer into the checked value. Ajv reports a failed `if`/`then` or `oneOf` as the
// branch errors plus a summary error; a user needs the real problem once, so summaries are
// dropped and a `then` problem says when it applies ("is required when type is \"http\""),
// read from the `if` beside it in the validated (root) schema.
import type { AnySchemaObject, ErrorObject } from 'ajv';
import type { FieldProblem } from '../errors.ts';
import { escapeToken, unescapeToken } from '../json/pointer.ts';

interface Entry {
  problem: FieldProblem;
  /** The instance path and keyword of the error that produced it. */
  at: string;
  keyword: string;
}

export function toProblems(errors: readonly ErrorObject[], root?: AnySchemaObject): FieldProblem[] {
  let entries: Entry[] = [];
  for (const error of errors) {
    if (error.keyword === 'if') continue;
    if (error.keyword === 'oneOf' || error.keyword === 'anyOf') entries = pickBranch(entries, error);
    else entries.push({ problem: explainThen(toProblem(error), error, root), at: error.instancePath, keyword: error.keyword });
  }
  return entries.map((entry) => entry.problem);
}

/** A problem found by a `then` branch of the root schema gets the `if` condition that made it apply. */
function explainThen(problem: FieldProblem, error: ErrorObject, root: AnySchemaObject | undefined): FieldProblem {
  const branch = /^#((?:\/[^/]+)*?)\/then\//.exec(error.schemaPath);
  if (!branch || !root) return problem;
  const condition = conditionOf(pointerInto(root, `${branch[1]}/if`));
  return condition ? { ...problem, message: `${problem.message} when ${condition}` } : problem;
}

function pointerInto(schema: unknown, pointer: string): unknown {
  return pointer.split('/').slice(1).reduce<unknown>((at, token) =>
    (typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[unescapeToken(token)] : undefined), schema);
}

/** `{properties: {type: {const: "http"}}}` → `type is "http"`. */
function conditionOf(schema: unknown): string | undefined {
  const properties = (schema as { properties?: Record<string, { const?: unknown }> } | undefined)?.properties;
  if (!properties) return undefined;
  const parts = Object.entries(properties)
    .filter(([, sub]) => sub.const !== undefined)
    .map(([field, sub]) => `${field} is ${JSON.stringify(sub.const)}`);
  return parts.length > 0 ? parts.join(' and ') : undefined;
}

/**
 * No branch (or several) matched: of the branch problems at or under the value, keep the one
 * most likely meant: a wrong value in a field the client sent beats a missing or unknown field
 * (which only say the value is of another shape), then the deepest field, then the first.
 */
function pickBranch(entries: Entry[], error: ErrorObject): Entry[] {
  const at = error.instancePath;
  const inside = (entry: Entry): boolean => entry.at === at || entry.at.startsWith(`${at}/`);
  const branch = entries.filter(inside);
  const rest = entries.filter((entry) => !inside(entry));
  const several = Array.isArray(error.params['passingSchemas']);
  if (several || branch.length === 0) {
    const message = several ? 'matches more than one of the allowed shapes' : 'does not match any of the allowed shapes';
    return [...rest, { problem: { field: at || '/', message }, at, keyword: error.keyword }];
  }
  const shapeOnly = new Set(['required', 'additionalProperties']);
  const rank = (entry: Entry): number => (shapeOnly.has(entry.keyword) ? 0 : 1000) + entry.problem.field.split('/').length;
  const best = branch.reduce((found, entry) => (rank(entry) > rank(found) ? entry : found));
  return [...rest, best];
}

function toProblem(error: ErrorObject): FieldProblem {
  const at = error.instancePath;
  switch (error.keyword) {
    case 'additionalProperties':
      return { field: `${at}/${escapeToken(String(error.params['additionalProperty']))}`, message: 'is not a known field' };
    case 'required':
      return { field: `${at}/${escapeToken(String(error.params['missingProperty']))}`, message: 'is required' };
    case 'const':
      return { field: at || '/', message: `must be ${JSON.stringify(error.params['allowedValue'])}` };
    case 'enum':
      return { field: at || '/', message: `must be one of: ${(error.params['allowedValues'] as unknown[]).map((value) => JSON.stringify(value)).join(', ')}` };
    case 'type':
      return { field: at || '/', message: `must be ${String(error.params['type']).split(',').join(' or ')}` };
    default:
      return { field: at || '/', message: error.message ?? `fails ${error.keyword}` };
  }
}
