// How long the database may spend on each call: the `maxTimeMS` every collection call carries,
// taken from the budget of the work it belongs to (a request's deadline), else the long bound.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Collection, Db } from 'mongodb';

/** A bound on the database calls of one piece of work (server/deadline.ts: a request's). */
export interface Budget {
  /** What is left for the next call (`collection.method`), in whole ms (at least 1); throws once nothing is left. */
  callMs(call: string): number;
}

const current = new AsyncLocalStorage<Budget>();

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

/**
 * The database with a server-side bound on every collection call: `maxTimeMS` = what is left
 * of the budget the call runs in, or `outsideMs` (DB_LONG_TIMEOUT_MS: start-up, the sweeper,
 * whole-version work; 0 or undefined: none). Driver 7.8 made `timeoutMS` (CSOT) a no-op, so the
 * bound is given per call; see docs/database.md for what FerretDB 1.24 does with it.
 */
export function budgeted(db: Db, outsideMs: number | undefined): Db {
  const withBound = (call: string, options: unknown): object => {
    const budget = current.getStore();
    const ms = budget ? budget.callMs(call) : outsideMs;
    return ms ? { ...(options as object | undefined), maxTimeMS: ms } : { ...(options as object | undefined) };
  };
  const collection = (target: Collection): Collection => new Proxy(target, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      const at = typeof property === 'string' ? OPTIONS_AT[property] : undefined;
      if (at === undefined || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const given = [...args];
        given[at] = withBound(`${target.collectionName}.${String(property)}`, given[at]);
        return (value as (...args: unknown[]) => unknown).apply(target, given);
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
