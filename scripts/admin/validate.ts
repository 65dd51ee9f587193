// Input checks of the admin CLI. Identifier and slug shapes come from schemas/defs/ids.json,
// the same validators the HTTP API uses, so the CLI cannot create what the API would refuse.
import type { AnySchemaObject } from 'ajv';
import { SCHEMA_BASE, type SchemaRegistry } from '../../server/schemas/registry.ts';
import { UsageError } from './command.ts';

const IDS = `${SCHEMA_BASE}defs/ids.json#/$defs/`;

/** Throws a UsageError naming the option, the problem and what the schema says the value is. */
export function checkAgainst(schemas: SchemaRegistry, def: string, value: string, label: string): string {
  const ref = `${IDS}${def}`;
  const problems = schemas.check(ref)(value);
  if (problems.length === 0) return value;
  const schema = schemas.ajv.getSchema(ref)?.schema as AnySchemaObject | undefined;
  const about = typeof schema?.['description'] === 'string' ? ` (${schema['description']})` : '';
  throw new UsageError(`invalid ${label} ${JSON.stringify(value)}: ${problems.map((p) => p.message).join('; ')}${about}`);
}

/** Free text that only has to be present, e.g. a project name or a token subject. */
export function checkNotBlank(value: string, label: string): string {
  if (value.trim() === '') throw new UsageError(`${label} must not be empty`);
  return value;
}

const UNIT_SECONDS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86_400 };
export const MAX_EXPIRES_IN_SECONDS = 365 * 86_400;

/** `30d`, `12h`, `90m`, `3600s` → seconds; positive and at most 365 days. */
export function parseDuration(raw: string, label: string): number {
  const match = /^(\d{1,9})([smhd])$/.exec(raw);
  const seconds = match ? Number(match[1]) * UNIT_SECONDS[match[2]!]! : NaN;
  if (!(seconds > 0 && seconds <= MAX_EXPIRES_IN_SECONDS)) {
    throw new UsageError(`invalid ${label} ${JSON.stringify(raw)}: use a whole number with a unit s, m, h or d (e.g. 30d, 12h, 90m, 3600s), from 1s to 365d`);
  }
  return seconds;
}
