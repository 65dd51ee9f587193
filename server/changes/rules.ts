// The rules of what a change does to a client: one library finding (api-smart-diff) at a place in
// an operation → a stable rule id, its level and one sentence. The levels of the rules the catalog
// promises (docs/changes.md) are fixed here; anything else keeps the library's classification.
import type { Diff } from 'api-smart-diff';

export type Level = 'breaking' | 'non-breaking';

export interface Finding {
  rule: string;
  level: Level;
  message: string;
}

/** Where in an operation a library finding is, relative to the operation object (or the document for servers and security). */
export interface Place {
  diff: Diff;
  /** Segments under the operation (`parameters/0/required`...). */
  at: readonly (string | number)[];
  /** `GET /pets`: the operation the finding is under, for sentences about the whole operation. */
  label?: string;
  /** The merged document's value at a segment prefix (api-smart-diff's merge holds both sides, references resolved). */
  lookup(at: readonly (string | number)[]): unknown;
}

const LIBRARY_LEVEL: Readonly<Record<string, Level | undefined>> = { breaking: 'breaking', 'non-breaking': 'non-breaking', deprecated: 'non-breaking' };

/** The finding, or undefined for what a client never notices (annotations, unclassified vendor data). */
export function classify(place: Place): Finding | undefined {
  const { diff, at } = place;
  const [head, ...rest] = at;
  if (at.length === 0) {
    const operation = place.label ?? 'The operation';
    return diff.action === 'add' ? fixed('operation-added', 'non-breaking', `${operation} was added.`)
      : diff.action === 'remove' ? fixed('operation-removed', 'breaking', `${operation} was removed.`) : undefined;
  }
  if (head === 'parameters') return parameter(place, rest);
  if (head === 'requestBody') return requestBody(place, rest);
  if (head === 'responses') return response(place, rest);
  if (head === 'security') return security(diff, rest);
  if (head === 'servers') return server(diff, rest);
  if (head === 'deprecated' && diff.after === true) return fixed('operation-deprecated', 'non-breaking', 'The operation was deprecated.');
  return library(place, 'operation-changed', `The operation's \`${segments(at)}\` changed.`);
}

function parameter(place: Place, rest: readonly (string | number)[]): Finding | undefined {
  const { diff } = place;
  const [index, field, ...inSchema] = rest;
  const value = (diff.action === 'remove' && field === undefined ? diff.before : place.lookup(['parameters', index!])) as { name?: string; in?: string; required?: boolean } | undefined;
  const name = `the ${value?.in ?? ''} parameter \`${value?.name ?? index}\``.replace('  ', ' ');
  if (field === undefined) {
    if (diff.action === 'remove') return fixed('request-parameter-removed', 'breaking', `${capital(name)} was removed.`);
    if (diff.action === 'add') {
      const added = diff.after as { required?: boolean } | undefined;
      return added?.required === true
        ? fixed('new-required-request-parameter', 'breaking', `A required parameter was added: ${name}.`)
        : fixed('new-optional-request-parameter', 'non-breaking', `An optional parameter was added: ${name}.`);
    }
  }
  if (field === 'required') {
    return diff.after === true
      ? fixed('request-parameter-became-required', 'breaking', `${capital(name)} became required.`)
      : fixed('request-parameter-became-optional', 'non-breaking', `${capital(name)} became optional.`);
  }
  if (field === 'schema') return schema(place, 'parameter', name, ['parameters', index!, 'schema'], inSchema);
  return library(place, 'request-parameter-changed', `${capital(name)} changed (\`${segments(rest.slice(1))}\`).`);
}

function requestBody(place: Place, rest: readonly (string | number)[]): Finding | undefined {
  const { diff } = place;
  const [field, mediaType, part, ...inSchema] = rest;
  if (field === undefined) {
    if (diff.action === 'add') {
      return (diff.after as { required?: boolean } | undefined)?.required === true
        ? fixed('request-body-added-required', 'breaking', 'A required request body was added.')
        : fixed('request-body-added', 'non-breaking', 'An optional request body was added.');
    }
    if (diff.action === 'remove') return fixed('request-body-removed', 'non-breaking', 'The request body was removed.');
  }
  if (field === 'required' && rest.length === 1) {
    return diff.after === true
      ? fixed('request-body-became-required', 'breaking', 'The request body became required.')
      : fixed('request-body-became-optional', 'non-breaking', 'The request body became optional.');
  }
  if (field === 'content' && mediaType === undefined && diff.action !== 'replace') {
    const types = Object.keys((diff.action === 'remove' ? diff.before : diff.after) ?? {}).join(', ');
    return diff.action === 'remove' ? fixed('request-media-type-removed', 'breaking', `The request body no longer takes ${types}.`)
      : fixed('request-media-type-added', 'non-breaking', `The request body now takes ${types}.`);
  }
  if (field === 'content' && mediaType !== undefined && part === undefined) {
    if (diff.action === 'remove') return fixed('request-media-type-removed', 'breaking', `The request media type ${mediaType} was removed.`);
    if (diff.action === 'add') return fixed('request-media-type-added', 'non-breaking', `The request media type ${mediaType} was added.`);
  }
  if (field === 'content' && part === 'schema') return schema(place, 'request', `the ${mediaType} request body`, ['requestBody', 'content', mediaType!, 'schema'], inSchema);
  return library(place, 'request-body-changed', `The request body changed (\`${segments(rest)}\`).`);
}

function response(place: Place, rest: readonly (string | number)[]): Finding | undefined {
  const { diff } = place;
  const [status, field, mediaType, part, ...inSchema] = rest;
  const success = /^2/.test(String(status));
  if (field === undefined) {
    if (diff.action === 'remove') {
      return success ? fixed('response-success-status-removed', 'breaking', `The success response ${status} was removed.`)
        : fixed('response-non-success-status-removed', 'non-breaking', `The response ${status} was removed.`);
    }
    if (diff.action === 'add') return fixed('response-status-added', 'non-breaking', `The response ${status} was added.`);
  }
  if (field === 'content' && mediaType === undefined && diff.action !== 'replace') {
    const types = Object.keys((diff.action === 'remove' ? diff.before : diff.after) ?? {}).join(', ');
    if (diff.action === 'remove') return fixed('response-media-type-removed', 'breaking', `The response ${status} no longer has a body (${types}).`);
    return fixed('response-media-type-added', 'non-breaking', `The response ${status} gained a body (${types}).`);
  }
  if (field === 'content' && mediaType !== undefined && part === undefined) {
    if (diff.action === 'remove') {
      // Of any status: a client that reads an error body breaks too (as oasdiff has it).
      return fixed('response-media-type-removed', 'breaking', `The media type ${mediaType} of the response ${status} was removed.`);
    }
    if (diff.action === 'add') return fixed('response-media-type-added', 'non-breaking', `The media type ${mediaType} of the response ${status} was added.`);
  }
  if (field === 'content' && part === 'schema') return schema(place, 'response', `the ${status} response (${mediaType})`, ['responses', status!, 'content', mediaType!, 'schema'], inSchema);
  return library(place, 'response-changed', `The response ${status} changed (\`${segments(rest.slice(1))}\`).`);
}

function security(diff: Diff, rest: readonly (string | number)[]): Finding | undefined {
  if (rest.length === 0 && diff.action === 'remove') return fixed('security-requirement-removed', 'non-breaking', 'The security requirement was removed.');
  if (rest.length === 0 && diff.action === 'add') return fixed('security-requirement-added', 'breaking', `A security requirement was added: ${schemes(diff.after)}.`);
  if (rest.length === 1 && diff.action === 'add') return fixed('security-requirement-added', 'breaking', `A security requirement was added: ${schemes([diff.after])}.`);
  if (rest.length === 1 && diff.action === 'remove') return fixed('security-alternative-removed', 'breaking', `A security alternative was removed: ${schemes([diff.before])}.`);
  const scheme = rest[1] === undefined ? segments(rest) : String(rest[1]);
  const how = diff.action === 'add' ? 'now also needs' : diff.action === 'remove' ? 'no longer names' : 'changed for';
  return fixed('security-requirement-changed', 'breaking', `The security requirement ${how} \`${scheme}\`.`);
}

function server(diff: Diff, rest: readonly (string | number)[]): Finding | undefined {
  if (rest.length <= 1 && diff.action === 'remove') return fixed('server-removed', 'breaking', `The server ${urls(diff.before)} was removed.`);
  if (rest.length <= 1 && diff.action === 'add') return fixed('server-added', 'non-breaking', `The server ${urls(diff.after)} was added.`);
  if (rest[1] === 'url') return fixed('server-removed', 'breaking', `The server ${String(diff.before)} was replaced by ${String(diff.after)}.`);
  return diff.type === 'breaking' ? fixed('server-changed', 'breaking', `A server changed (\`${segments(rest)}\`).`) : undefined;
}

type Side = 'parameter' | 'request' | 'response';

/** A finding inside a schema: properties, required, type, format and enum by the side the schema is on. */
function schema(place: Place, side: Side, owner: string, base: readonly (string | number)[], at: readonly (string | number)[]): Finding | undefined {
  const { diff } = place;
  const { property, tail } = propertyOf(at);
  const subject = side === 'parameter' ? owner : property === '' ? owner : `the ${side} property \`${property}\``;
  const prefix = side === 'parameter' ? 'request-parameter' : `${side}-property`;
  const [last, index] = tail;
  if (last === 'properties' && tail.length === 2) {
    const name = `\`${property === '' ? String(index) : `${property}.${String(index)}`}\``;
    if (side === 'request' && diff.action === 'add') {
      const required = place.lookup([...base, ...at.slice(0, -2), 'required']);
      return Array.isArray(required) && required.includes(index)
        ? fixed('new-required-request-property', 'breaking', `A required request property was added: ${name}.`)
        : fixed('new-optional-request-property', 'non-breaking', `An optional request property was added: ${name}.`);
    }
    if (side === 'response' && diff.action === 'remove') return fixed('response-property-removed', 'breaking', `The response property ${name} was removed.`);
    if (side === 'response' && diff.action === 'add') return fixed('response-property-added', 'non-breaking', `The response property ${name} was added.`);
    if (side === 'request' && diff.action === 'remove') return library(place, 'request-property-removed', `The request property ${name} was removed.`);
  }
  if (last === 'required' && side !== 'parameter') {
    const names = (diff.action === 'remove' ? [diff.before] : [diff.after]).flat().map((name) => `\`${property === '' ? name : `${property}.${name}`}\``).join(', ');
    const madeRequired = diff.action === 'add' || (diff.action === 'replace' && diff.after !== undefined);
    if (side === 'request') {
      return madeRequired ? fixed('request-property-became-required', 'breaking', `The request property ${names} became required.`)
        : fixed('request-property-became-optional', 'non-breaking', `The request property ${names} became optional.`);
    }
    return madeRequired ? fixed('response-property-became-required', 'non-breaking', `The response property ${names} became required.`)
      : fixed('response-property-became-optional', 'breaking', `The response property ${names} became optional.`);
  }
  if (last === 'type' || last === 'format') {
    const what = last === 'type' ? 'type' : 'format';
    // A member of a type array (`[string, null]`) is reported alone: say which one came or went.
    const member = tail.length > 1;
    const change = member
      ? `${diff.action === 'remove' ? 'lost' : 'gained'} ${shown(diff.action === 'remove' ? diff.before : diff.after)}`
      : `changed from ${shown(diff.before)} to ${shown(diff.after)}`;
    // Fewer values accepted (a type or format appearing, a type member going) is narrower: a
    // response may narrow, a request may widen; anything else breaks a client.
    const [before, after] = [members(diff.before), members(diff.after)];
    const narrowed = member ? diff.action === 'remove' : diff.action === 'add' || within(after, before);
    const widened = member ? diff.action === 'add' : diff.action === 'remove' || within(before, after);
    if (side === 'response' && narrowed) return fixed(`${prefix}-${what}-narrowed`, 'non-breaking', `The ${what} of ${subject} ${change}.`);
    if (side !== 'response' && widened) return fixed(`${prefix}-${what}-widened`, 'non-breaking', `The ${what} of ${subject} ${change}.`);
    return fixed(`${prefix}-${what}-changed`, 'breaking', `The ${what} of ${subject} ${change}.`);
  }
  if (last === 'enum') {
    const added = diff.action === 'add';
    const values = shown(added ? diff.after : diff.before);
    const breaks = side === 'response' ? added : !added;
    if (diff.action === 'replace') return fixed(`${prefix}-enum-value-changed`, 'breaking', `An allowed value of ${subject} changed from ${shown(diff.before)} to ${shown(diff.after)}.`);
    return fixed(`${prefix}-enum-value-${added ? 'added' : 'removed'}`, breaks ? 'breaking' : 'non-breaking', `${capital(subject)} ${added ? 'gained' : 'lost'} the allowed value ${values}.`);
  }
  return library(place, `${prefix}-schema-changed`, `The schema of ${subject} changed (\`${segments(tail)}\`).`);
}

/** The dotted property name a schema path reaches (`owner.login`, `[]` for array items) and what follows it. */
function propertyOf(at: readonly (string | number)[]): { property: string; tail: readonly (string | number)[] } {
  const names: string[] = [];
  let i = 0;
  for (;;) {
    const segment = at[i];
    if (segment === 'properties' && at.length > i + 2) { names.push(String(at[i + 1])); i += 2; continue; }
    if (segment === 'items') { names.push('[]'); i += 1; continue; }
    if (segment === 'additionalProperties' && at.length > i + 1) { names.push('*'); i += 1; continue; }
    if ((segment === 'allOf' || segment === 'anyOf' || segment === 'oneOf') && at.length > i + 2) { i += 2; continue; }
    break;
  }
  return { property: names.join('.').replaceAll('.[]', '[]'), tail: at.slice(i) };
}

/** A type (or format) as the set of names it allows. */
function members(value: unknown): string[] | undefined {
  return value === undefined ? undefined : (Array.isArray(value) ? value : [value]).map(String);
}

/** Whether `some` is a proper subset of `all`. */
function within(some: string[] | undefined, all: string[] | undefined): boolean {
  return some !== undefined && all !== undefined && all.length > some.length && some.every((name) => all.includes(name));
}

function library(place: Place, rule: string, message: string): Finding | undefined {
  const level = LIBRARY_LEVEL[place.diff.type];
  return level && fixed(rule, level, message);
}

function fixed(rule: string, level: Level, message: string): Finding {
  return { rule, level, message };
}

function shown(value: unknown): string {
  if (value === undefined) return 'none';
  if (Array.isArray(value)) return value.map((item) => shown(item)).join(', ');
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function schemes(requirements: unknown): string {
  const names = (Array.isArray(requirements) ? requirements : []).flatMap((requirement) => (requirement && typeof requirement === 'object' ? Object.keys(requirement) : []));
  return names.length > 0 ? names.join(', ') : 'none';
}

function urls(value: unknown): string {
  return (Array.isArray(value) ? value : [value]).map((item) => String((item as { url?: unknown } | undefined)?.url ?? '')).join(', ');
}

function segments(at: readonly (string | number)[]): string {
  return at.join('/');
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
