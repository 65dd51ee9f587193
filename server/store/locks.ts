// Serialises work on one key inside this process; the record store's own (callers go through
// RecordStore.exclusive and exclusiveKey). FerretDB 1.24 applies an update by reading the
// document and writing it back in two steps (see docs/database.md), so two concurrent patches
// of different fields could lose one; MongoDB needs no help, but this costs nothing measurable
// there. Imports of one service queue on the service's natural key on either database.

export class RecordLocks {
  readonly #tails = new Map<string, Promise<unknown>>();

  /** Runs `work` after every earlier `work` on the same key has settled. */
  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const current = previous.then(work, work);
    const tail = current.then(noop, noop);
    this.#tails.set(key, tail);
    try {
      return await current;
    } finally {
      // The last writer in the queue removes the key, so the map holds only busy records.
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    }
  }

  /** Number of records with writes queued or running (for tests and metrics). */
  get busy(): number {
    return this.#tails.size;
  }
}

function noop(): void {}
