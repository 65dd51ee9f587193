// New identifiers: the kind's prefix (from its schema's x-id-prefix) and a ULID, so ids sort
// by creation time and the default list order is creation order.
import { monotonicFactory } from 'ulid';

// Monotonic: ids made within one millisecond still sort in the order they were made.
const nextUlid = monotonicFactory();

export function newId(prefix: string): string {
  return prefix + nextUlid();
}
