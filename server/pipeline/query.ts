// A route's query string, checked by the schemas its documentation shows, compiled once when the
// route is mounted (as fastify compiles a route's querystring schema at registration): only the
// parameters the route documents, each given once unless its schema is an array, each value
// checked by its schema with the text coerced to the schema's type. The work receives the typed
// values (and the schemas' defaults), never the raw text.
import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import { InvalidRequest } from '../errors.ts';
import type { QueryParameter, Schema } from '../routes/documentation.ts';
import type { QueryValues } from '../routes/route.ts';
import { toProblems } from '../schemas/problems.ts';

export type QueryCheck = (query: Readonly<Record<string, unknown>>) => QueryValues;

interface CompiledParameter {
  parameter: QueryParameter;
  /** Validates `{ value }`: Ajv coerces a value only inside an object, never at the root. */
  validate: ValidateFunction;
  repeatable: boolean;
  /** A number written as plain decimals: Ajv's coercion alone would also take `1e2`, ` 5` and `0x10`. */
  numeric: boolean;
}

/** Numbers in a query string: digits, an optional sign and fraction, nothing else. */
const DECIMAL = /^-?\d+(\.\d+)?$/;

export function compileQueryCheck(ajv: Ajv2020, parameters: readonly QueryParameter[]): QueryCheck {
  const compiled = new Map(parameters.map((parameter): [string, CompiledParameter] => [parameter.name, {
    parameter,
    validate: ajv.compile({ type: 'object', properties: { value: parameter.schema } }),
    repeatable: typesOf(parameter.schema).includes('array'),
    numeric: typesOf(parameter.schema).some((type) => type === 'integer' || type === 'number'),
  }]));
  const names = parameters.map(({ name }) => name);
  const takes = names.length === 0 ? 'this operation takes no query parameters' : `this operation takes ${names.join(', ')}`;
  return (query) => {
    // An unknown parameter is reported before a repeated or malformed one.
    const unknown = Object.keys(query).find((name) => !compiled.has(name));
    if (unknown !== undefined) throw InvalidRequest.field(unknown, `is not a query parameter of this operation (${takes})`);
    const values: Record<string, unknown> = {};
    for (const [name, parameter] of compiled) {
      const value = valueOf(parameter, query[name]);
      if (value !== undefined) values[name] = value;
    }
    return values;
  };
}

function valueOf({ parameter, validate, repeatable, numeric }: CompiledParameter, given: unknown): unknown {
  const { name, required, invalid, missing, fromText } = parameter;
  if (given === undefined && required) throw InvalidRequest.field(name, missing ?? 'is required');
  const refuse = (message?: string) => InvalidRequest.field(name, invalid ?? message ?? 'is not valid');
  let holder: { value?: unknown } = {};
  if (repeatable && given !== undefined) {
    // Express gives a repeated parameter as an array, and `a[x]=` as an object: only texts are taken.
    const texts = Array.isArray(given) ? given : [given];
    if (!texts.every((text) => typeof text === 'string')) throw refuse('must be text, given once or repeated');
    holder = { value: texts };
  } else if (given !== undefined) {
    if (typeof given !== 'string') throw InvalidRequest.field(name, 'must be given once');
    if (numeric && !DECIMAL.test(given)) throw refuse('must be a number');
    if (fromText) {
      const typed = fromText(given);
      if ('problem' in typed) throw refuse(typed.problem);
      holder = { value: typed.value };
    } else {
      holder = { value: given };
    }
  }
  if (!validate(holder)) throw refuse(toProblems(validate.errors ?? [])[0]?.message);
  return holder.value;
}

function typesOf(schema: Schema): string[] {
  const type = (schema as { type?: string | string[] }).type;
  return type === undefined ? [] : [type].flat();
}
