// An endpoint's query string, checked by a schema compiled once when the endpoint is mounted (as
// fastify compiles a route's querystring schema at registration): only the parameters the
// endpoint documents, each given once (Express makes a repeated one an array). Their values are
// the operation's to judge, with messages that name each rule.
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import { InvalidRequest } from '../errors.ts';

const ajv = new Ajv2020({ allErrors: true, strict: true });

export type QueryCheck = (query: Readonly<Record<string, unknown>>) => void;

export function compileQueryCheck(names: readonly string[]): QueryCheck {
  const validate = ajv.compile({
    type: 'object',
    properties: Object.fromEntries(names.map((name) => [name, { type: 'string' }])),
    additionalProperties: false,
  });
  return (query) => {
    if (validate(query)) return;
    const errors = validate.errors ?? [];
    // An unknown parameter is reported before a repeated one, as the operations always did.
    throw refusal(errors.find((error) => error.keyword === 'additionalProperties') ?? errors[0]!);
  };
}

function refusal(error: ErrorObject): InvalidRequest {
  if (error.keyword === 'additionalProperties') {
    return InvalidRequest.field(String(error.params['additionalProperty']), 'is not a query parameter of this operation');
  }
  return InvalidRequest.field(error.instancePath.slice(1), 'must be given once');
}

/** A parameter's value where the endpoint checks its own query: undefined when absent, 400 when repeated. */
export function singleValue(name: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw InvalidRequest.field(name, 'must be given once');
  return value;
}
