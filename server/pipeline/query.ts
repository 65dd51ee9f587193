// A route's query string, checked by the schemas its documentation shows, compiled once when the
// route is mounted (as fastify compiles a route's querystring schema at registration): only the
// parameters the route documents, each given once, each value checked by its schema with the
// text coerced to the schema's type. The work receives the typed values (and the schemas'
// defaults), never the raw text.
import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import { InvalidRequest } from '../errors.ts';
import type { QueryParameter } from '../routes/documentation.ts';
import type { QueryValues } from '../routes/route.ts';
import { toProblems } from '../schemas/problems.ts';

export type QueryCheck = (query: Readonly<Record<string, unknown>>) => QueryValues;

interface CompiledParameter {
  parameter: QueryParameter;
  /** Validates `{ value }`: Ajv coerces a value only inside an object, never at the root. */
  validate: ValidateFunction;
}

export function compileQueryCheck(ajv: Ajv2020, parameters: readonly QueryParameter[]): QueryCheck {
  const compiled = new Map(parameters.map((parameter): [string, CompiledParameter] => [parameter.name, {
    parameter,
    validate: ajv.compile({ type: 'object', properties: { value: parameter.schema } }),
  }]));
  return (query) => {
    // An unknown parameter is reported before a repeated or malformed one.
    const unknown = Object.keys(query).find((name) => !compiled.has(name));
    if (unknown !== undefined) throw InvalidRequest.field(unknown, 'is not a query parameter of this operation');
    const values: Record<string, unknown> = {};
    for (const [name, { parameter, validate }] of compiled) {
      const value = valueOf(parameter, validate, query[name]);
      if (value !== undefined) values[name] = value;
    }
    return values;
  };
}

function valueOf({ name, required, invalid, missing }: QueryParameter, validate: ValidateFunction, given: unknown): unknown {
  if (given === undefined && required) throw InvalidRequest.field(name, missing ?? 'is required');
  if (given !== undefined && typeof given !== 'string') throw InvalidRequest.field(name, 'must be given once');
  const holder: { value?: unknown } = given === undefined ? {} : { value: given };
  if (!validate(holder)) throw InvalidRequest.field(name, invalid ?? toProblems(validate.errors ?? [])[0]?.message ?? 'is not valid');
  return holder.value;
}

/** A parameter's value where the route checks its own query (record lists): undefined when absent, 400 when repeated. */
export function singleValue(name: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw InvalidRequest.field(name, 'must be given once');
  return value;
}
