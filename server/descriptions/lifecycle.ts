// Who owns a service and where it and its parts are in their life, as a description says it:
// the Info Object's `contact` and our extensions beside it (`x-owner`, `x-lifecycle`, `x-links`),
// and `x-sunset` on an operation or a parameter (oasdiff's extension, beside OpenAPI's own
// `deprecated`). Read by map.ts, written back by render.ts; a value that is not of the record's
// shape is not taken, so it stays in the record's kvStorage and export gives it back as it was.
import { defined, isObject, type JsonObject } from '../json/values.ts';
import { LIFECYCLE_STAGES } from '../ownership/lifecycle.ts';

const LINKS = ['docs', 'repository', 'chat'] as const;
const CONTACT = ['name', 'email', 'url'] as const;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** Only the named string members of an object, or undefined when it has none. */
function picked(value: unknown, names: readonly string[], keep: (member: string) => boolean = () => true): JsonObject | undefined {
  if (!isObject(value)) return undefined;
  const out = defined(Object.fromEntries(names.map((name) => [name, text(value[name])]).filter(([, member]) => member !== undefined && keep(member as string))));
  return Object.keys(out).length > 0 ? out : undefined;
}

/** A Service's owner, contact, lifecycle and links from a description's Info Object (undefined where it says nothing usable). */
export function ownershipFields(info: JsonObject): Record<string, unknown> {
  const stage = info['x-lifecycle'];
  return {
    owner: text(info['x-owner']),
    contact: picked(info['contact'], CONTACT),
    lifecycle: LIFECYCLE_STAGES.find((known) => known === stage),
    links: picked(info['x-links'], LINKS, (url) => URL.canParse(url)),
  };
}

/** The Info Object members a Service's owner, contact, lifecycle and links render as. */
export function ownershipInfo(record: Record<string, unknown>): JsonObject {
  return defined({
    contact: isObject(record['contact']) ? record['contact'] : undefined,
    'x-owner': text(record['owner']),
    'x-lifecycle': text(record['lifecycle']),
    'x-links': isObject(record['links']) ? record['links'] : undefined,
  });
}

/**
 * The sunset date (`YYYY-MM-DD`) of an operation or parameter from its `x-sunset`: a date, or
 * the date of a date-time (the original date-time stays in kvStorage, so export gives it back).
 */
export function sunsetOf(object: JsonObject): string | undefined {
  const value = object['x-sunset'];
  if (typeof value !== 'string') return undefined;
  const date = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!date) return undefined;
  const day = new Date(`${date[0]}T00:00:00Z`);
  return Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== date[0] ? undefined : date[0];
}
