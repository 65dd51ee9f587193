// What a change does to something in its life: an operation, a parameter or a body property
// made deprecated, its sunset date (`x-sunset`) set or moved, and its removal judged by what it
// had announced. Removing what was never deprecated breaks clients without warning
// (`removed_not_deprecated`, oasdiff's term); removing what is deprecated before its sunset
// breaks them before the date they were given (`removed_before_sunset`): both keep the rule's
// level (breaking, but for a request property, which a server may stop reading). Removing it on
// or after its sunset, or deprecated with no date, is what was announced: planned, not breaking
// (`removed_after_sunset`). The level is what the `failOn=breaking` gate counts.
import type { Finding, Place } from './rules.ts';

export type Lifecycle = 'deprecated' | 'sunset_changed' | 'removed_not_deprecated' | 'removed_before_sunset' | 'removed_after_sunset';

export interface LifecycleFinding extends Finding {
  lifecycle?: Lifecycle;
}

type Segments = readonly (string | number)[];

/** The removals whose level depends on what the removed thing had announced. */
const REMOVALS = new Set(['operation-removed', 'request-parameter-removed', 'request-property-removed', 'response-property-removed']);

/** What a finding is about, by where it is under the operation: `operation`, `request-parameter`, `request-property`, `response-property`. */
function subjectOf(at: Segments): { kind: string; name: string } | undefined {
  if (at.length === 0) return { kind: 'operation', name: 'The operation' };
  if (at[0] === 'parameters' && at.length === 2) return { kind: 'request-parameter', name: 'The parameter' };
  const property = at.at(-2) === 'properties' ? at.at(-1) : undefined;
  if (property === undefined) return undefined;
  if (at[0] === 'requestBody') return { kind: 'request-property', name: `The request property \`${String(property)}\`` };
  if (at[0] === 'responses') return { kind: 'response-property', name: `The response property \`${String(property)}\`` };
  return undefined;
}

/**
 * The finding of a deprecation or a sunset date set, moved or dropped, where the rules have
 * none (they say `operation-deprecated` only); undefined for any other change.
 */
export function lifecycleFinding(place: Place): LifecycleFinding | undefined {
  const { diff, at } = place;
  const last = at.at(-1);
  if (last !== 'deprecated' && last !== 'x-sunset') return undefined;
  const owner = at.slice(0, -1);
  const subject = subjectOf(owner);
  if (!subject) return undefined;
  const named = subject.kind === 'request-parameter' ? `The ${parameterName(place, owner)}` : subject.name;
  if (last === 'deprecated') {
    if (diff.after !== true) return undefined;
    return { rule: `${subject.kind}-deprecated`, level: 'non-breaking', lifecycle: 'deprecated', message: `${named} was deprecated.` };
  }
  const [before, after] = [dateOf(diff.before), dateOf(diff.after)];
  const message = after === undefined ? `${named} no longer has a sunset date (it had ${before ?? 'none'}).`
    : before === undefined ? `${named} has a sunset date: ${after}.` : `The sunset date of ${lower(named)} moved from ${before} to ${after}.`;
  return { rule: `${subject.kind}-sunset-changed`, level: 'non-breaking', lifecycle: 'sunset_changed', message };
}

/**
 * A removal finding judged by what the removed thing announced, on `today` (`YYYY-MM-DD`); any
 * other finding as it is.
 */
export function judgedRemoval(finding: Finding, place: Place, today: string): LifecycleFinding {
  if (!REMOVALS.has(finding.rule) || place.diff.action !== 'remove') return finding;
  const removed = place.diff.before as { deprecated?: unknown; 'x-sunset'?: unknown } | undefined;
  if (removed?.deprecated !== true) return { ...finding, lifecycle: 'removed_not_deprecated' };
  const sunset = dateOf(removed['x-sunset']);
  if (sunset !== undefined && sunset > today) {
    return { ...finding, lifecycle: 'removed_before_sunset', message: `${finding.message.replace(/\.$/, '')} before its sunset date, ${sunset}, though deprecated.` };
  }
  const announced = sunset === undefined ? 'deprecated, with no sunset date' : `deprecated, its sunset date ${sunset} passed`;
  return { ...finding, level: 'non-breaking', lifecycle: 'removed_after_sunset', message: `${finding.message.replace(/\.$/, '')} as planned (${announced}).` };
}

/** The day of today as sunset dates are written, in UTC. */
export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** A sunset value's date (`YYYY-MM-DD`, or a date-time's date); undefined when it is none. */
function dateOf(value: unknown): string | undefined {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : undefined;
}

function parameterName(place: Place, owner: Segments): string {
  const parameter = place.lookup(owner) as { name?: unknown; in?: unknown } | undefined;
  return `${typeof parameter?.in === 'string' ? `${parameter.in} ` : ''}parameter \`${String(parameter?.name ?? owner.at(-1))}\``;
}

function lower(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
