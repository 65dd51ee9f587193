// The JSON Schema of a project's lint settings as a request gives them (POST …/lint-settings, the
// admin CLI's `lint set`), and its check for callers outside the route pipeline.
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { FieldProblem } from '../errors.ts';
import type { Schema } from '../routes/documentation.ts';
import { SEVERITIES } from './settings.ts';

export const severity: Schema = { type: 'string', enum: [...SEVERITIES] };
export const operation: Schema = { type: 'object', additionalProperties: false, required: ['method', 'path'], properties: { method: { type: 'string' }, path: { type: 'string' } } };
export const SETTINGS_SCHEMA: Schema = {
  type: 'object', additionalProperties: false,
  properties: {
    rulesets: { type: 'array', items: { type: 'string' }, description: 'Built-in rulesets (their recommended rules).' },
    documents: {
      type: 'array', maxItems: 20,
      items: { type: 'object', additionalProperties: false, required: ['name', 'ruleset'], properties: { name: { type: 'string', minLength: 1, maxLength: 100 }, ruleset: { type: ['object', 'string'] } } },
    },
    severities: { type: 'object', additionalProperties: { type: 'string', enum: [...SEVERITIES, 'off'] } },
    exemptions: {
      type: 'array', maxItems: 1000,
      items: { type: 'object', additionalProperties: false, properties: { rule: { type: 'string' }, path: { type: 'string', pattern: '^(/.*)?$' }, operation, reason: { type: 'string' } } },
    },
  },
};

let check: ReturnType<Ajv2020['compile']> | undefined;

/** What is wrong with `body` as lint settings, as JSON pointers; none when it is well formed. */
export function settingsProblems(body: unknown): FieldProblem[] {
  check ??= new Ajv2020({ allErrors: true, allowUnionTypes: true }).compile(SETTINGS_SCHEMA);
  if (check(body)) return [];
  return (check.errors ?? []).map((error) => ({ field: error.instancePath || '/', message: error.message ?? 'is not valid' }));
}
