// A route's JSON body, checked by the schema its documentation shows, compiled once when the
// route is mounted, as its query string is (pipeline/query.ts): the work receives a body its
// schema accepts (with the schema's defaults filled in), never one it must check again.
import type { AnySchemaObject, ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { InvalidRequest, type FieldProblem } from '../errors.ts';
import type { DocumentedRoute } from '../routes/documentation.ts';
import { toProblems } from '../schemas/problems.ts';

export type BodyCheck = (body: unknown) => unknown;

export function compileBodyCheck(ajv: Ajv2020, path: string, body: DocumentedRoute['body']): BodyCheck {
  if (!body) throw new Error(`${path}: a route that takes a JSON body documents its schema`);
  const validate = validatorOf(ajv, body.schema);
  const invalid = body.invalid ?? {};
  return (value) => {
    if (validate(value)) return value;
    const problems = toProblems(validate.errors ?? [], validate.schema as AnySchemaObject);
    throw new InvalidRequest(problems.map((problem): FieldProblem => ({ ...problem, message: invalid[problem.field] ?? problem.message })));
  };
}

/**
 * A lone `$ref` is validated as the schema it names, so a problem of a `then` branch can say
 * when it applies (schemas/problems.ts reads the `if` from the validated root).
 */
function validatorOf(ajv: Ajv2020, schema: Readonly<Record<string, unknown>>): ValidateFunction {
  const ref = Object.keys(schema).length === 1 && typeof schema['$ref'] === 'string' ? schema['$ref'] : undefined;
  const named = ref === undefined ? undefined : ajv.getSchema(ref);
  if (ref !== undefined && !named) throw new Error(`no schema ${ref}`);
  return named ?? ajv.compile(schema);
}
