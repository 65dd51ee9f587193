// How long the database may spend on each call: the `maxTimeMS` every collection call carries,
// taken from the budget of the work it belongs to (a request's deadline), else the long bound;
// and the same bound held on our side, by closing the call's connection once it is spent.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Collection, Db } from 'mongodb';
import { ServiceUnavailable } from '../errors.ts';

/** A bound on the database calls of one piece of work (server/pipeline/deadline.ts: a request's). */
export interface Budget {
  /** What is left for the next call (`collection.method`), in whole ms (at least 1); throws once nothing is left. `undefined`: the long bound. */
  callMs(call: string): number | undefined;
  /** Aborted when the work is abandoned (its client went away, the service is stopping): its calls end at once. */
  readonly signal?: AbortSignal | undefined;
  /** Told when one of its calls was ended for outliving its bound (whole-version work then gives up as a whole). */
  callEnded?(reason: ServiceUnavailable): void;
}

const current = new AsyncLocalStorage<Budget>();

/**
 * Runs `work`, and all it starts, outside any budget: its calls get the long bound, as start-up's
 * do. For work a request starts and does not wait for (a lint, a score card, the search index
 * built behind a write, an event delivery round): it would otherwise carry the request's
 * deadline into everything it did after the answer, and a queue it began draining would fail
 * every later job once the request's few seconds were spent ("ran out after 13441 ms").
 */
export function outsideBudget<T>(work: () => T): T {
  return current.exit(work);
}

/** Runs `work` with every database call it makes, however deep, bounded by `budget`. */
export function withinBudget<T>(budget: Budget, work: () => Promise<T>): Promise<T> {
  return current.run(budget, work);
}

// The position of the options argument of each collection method that sends a bounded command
// (mongodb 7). Not createIndex: its options are the index's own, and start-up index builds may
// take long anyway. A method missing here goes out without a bound.
const OPTIONS_AT: Readonly<Record<string, number>> = {
  find: 1, findOne: 1, aggregate: 1, countDocuments: 1, estimatedDocumentCount: 0,
  insertOne: 1, insertMany: 1, bulkWrite: 1, deleteOne: 1, deleteMany: 1, findOneAndDelete: 1,
  updateOne: 2, updateMany: 2, replaceOne: 2, findOneAndUpdate: 2, findOneAndReplace: 2,
};
// These answer a cursor, which holds its connection until it is exhausted or closed.
const CURSORS = new Set(['find', 'aggregate']);
// How long after its maxTimeMS a call is ended on our side: a server that honours maxTimeMS
// answers MaxTimeMSExpired first (FerretDB did within 60 ms) and keeps the connection; closing
// one costs a new connection, so only a server that does not honour it pays for that.
const CALL_END_GRACE_MS = 500;

interface Closable { once(event: 'close', listener: () => void): unknown }

/**
 * The database with a bound on every collection call: `maxTimeMS` = what is left of the budget
 * the call runs in, or `outsideMs` (DB_LONG_TIMEOUT_MS: start-up, the sweeper, whole-version
 * work; 0 or undefined: none), so that a server that honours it stops. FerretDB does not for its
 * writes, and a stalled engine answers nothing, so the same bound is also kept on our side: an
 * abort signal (the driver's `signal`, which closes the call's connection; driver 7.8 made the
 * client-side `timeoutMS` a no-op) ends the call 0.5 s after its bound is spent, once its budget's work
 * is abandoned, or once `stopping` is (shutdown). A cursor's bound runs from its creation to its
 * close, over all its batches. See docs/database.md.
 */
export function budgeted(db: Db, outsideMs: number | undefined, stopping?: AbortSignal): Db {
  const boundOf = (call: string) => {
    const budget = current.getStore();
    const asked = budget?.callMs(call);
    return { ms: asked ?? outsideMs, long: asked === undefined, signal: budget?.signal, ended: (reason: ServiceUnavailable) => budget?.callEnded?.(reason) };
  };
  const collection = (target: Collection): Collection => new Proxy(target, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      const at = typeof property === 'string' ? OPTIONS_AT[property] : undefined;
      if (at === undefined || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const call = `${target.collectionName}.${String(property)}`;
        const { ms, long, signal: abandoned, ended: onEnded } = boundOf(call);
        const ended = callEnd(call, ms, long, [abandoned, stopping], onEnded);
        const given = [...args];
        given[at] = { ...(given[at] as object | undefined), ...(ms ? { maxTimeMS: ms } : {}), ...(ended && { signal: ended.signal }) };
        const result = (value as (...args: unknown[]) => unknown).apply(target, given);
        if (!ended) return result;
        if (CURSORS.has(String(property))) {
          (result as Closable).once('close', ended.done);
          return result;
        }
        // A bulk write wraps the abort in its own error; the abort's reason (a 503) is the answer.
        return (result as Promise<unknown>).then((answer) => {
          ended.done();
          return answer;
        }, (error: unknown) => {
          ended.done();
          throw ended.signal.aborted ? ended.signal.reason : error;
        });
      };
    },
  });
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property !== 'collection') return Reflect.get(target, property, receiver);
      return (...args: Parameters<Db['collection']>) => collection(target.collection(...args));
    },
  });
}

/** The signal that ends one call (its bound spent, or one of `others` aborted), and `done` to release its timer. */
function callEnd(call: string, ms: number | undefined, long: boolean, others: (AbortSignal | undefined)[], onEnded: (reason: ServiceUnavailable) => void):
  { signal: AbortSignal; done: () => void } | undefined {
  const given = others.filter((signal): signal is AbortSignal => signal !== undefined);
  if (!ms && given.length === 0) return undefined;
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  if (ms) {
    const bound = long ? `DB_LONG_TIMEOUT_MS (${ms} ms)` : `what was left of the request's budget (${ms} ms)`;
    timer = setTimeout(() => {
      const reason = new ServiceUnavailable(`the database did not answer ${call} within ${bound}; the call was ended`);
      controller.abort(reason);
      onEnded(reason);
    }, ms + CALL_END_GRACE_MS);
    // A bound alone must not keep Node alive.
    timer.unref();
  }
  const signal = given.length > 0 ? AbortSignal.any([controller.signal, ...given]) : controller.signal;
  return { signal, done: () => clearTimeout(timer) };
}
