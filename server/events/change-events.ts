// The one entry point every room records change events through (wired in server/rooms.ts):
// `around` records the changes pending, runs the write, then makes them ready, so an event
// exists for a write exactly when it committed (outbox.ts). Nothing is recorded for a change
// no subscription of the project wants, so a project without subscriptions pays one read.
import type { Db } from 'mongodb';
import type { WebhookConfig } from '../config.ts';
import { ApiError } from '../errors.ts';
import { verdictOf, type CommitCheck, type CommitSources } from './commits.ts';
import { eventOf, type Change, type RecordedEvent } from './events.ts';
import { Outbox } from './outbox.ts';
import { Subscriptions } from './subscriptions.ts';
import { DeliveryWorker } from './worker.ts';

/** Changes recorded, their write not yet known to have committed. */
export interface PendingEvents {
  /** The write committed (or ran at all: a write cut short still gave its version its revision). */
  committed(): Promise<void>;
  /** The write threw: whether it committed is read back (commits.ts), the events kept when it did, dropped when not. */
  settle(): Promise<void>;
  /** The write was refused before it wrote anything: the events go. */
  drop(): Promise<void>;
  /** The changes again, with more in their data (same order, same types): the events are made again under their ids, then settled. */
  complete(changes: readonly Change[]): Promise<void>;
}

export class ChangeEvents {
  readonly subscriptions: Subscriptions;
  readonly outbox: Outbox;
  readonly worker: DeliveryWorker;
  readonly #sources: CommitSources;
  readonly #config: WebhookConfig;

  constructor(db: Db, sources: Omit<CommitSources, 'db'>, config: WebhookConfig, log: (message: string, fields?: Record<string, unknown>) => void) {
    this.subscriptions = new Subscriptions(db);
    this.outbox = new Outbox(db);
    this.#sources = { ...sources, db };
    this.#config = config;
    this.worker = new DeliveryWorker({ outbox: this.outbox, subscriptions: this.subscriptions, sources: this.#sources, config, log });
  }

  async createIndexes(): Promise<void> {
    await this.subscriptions.createIndexes();
    await this.outbox.createIndexes();
  }

  /** Whether any subscription of the project wants any of these types (to skip work made only for events). */
  async wanted(projectId: string, types: readonly Change['type'][]): Promise<boolean> {
    return (await this.subscriptions.list(projectId)).some((subscription) => subscription.types.some((type) => types.includes(type)));
  }

  /**
   * Records the changes with `check` (what shows their write committed), before the write;
   * undefined when no subscription wants them. `held`: their data is completed later
   * (`complete`), and until then, or WEBHOOK_COMMIT_GRACE_MS, the worker leaves them pending.
   */
  async pending(changes: readonly Change[], check: CommitCheck, options: { held?: boolean } = {}): Promise<PendingEvents | undefined> {
    const events: { index: number; event: RecordedEvent; subscriptionIds: string[] }[] = [];
    for (const [index, change] of changes.entries()) {
      const wanting = await this.subscriptions.wanting(change.projectId, change.type, change.service);
      if (wanting.length > 0) events.push({ index, event: eventOf(change), subscriptionIds: wanting.map(({ id }) => id) });
    }
    if (events.length === 0) return undefined;
    const now = new Date();
    const ids = await this.outbox.record(changes[0]!.projectId, events, check, now, options.held ? new Date(now.getTime() + this.#config.commitGraceMs) : undefined);
    const committed = async () => {
      await this.outbox.ready(ids);
      this.worker.wake();
    };
    const settle = async () => (await verdictOf(check, this.#sources) === 'committed' ? committed() : this.outbox.drop(ids));
    return {
      committed,
      settle,
      drop: () => this.outbox.drop(ids),
      complete: async (completed) => {
        const bodies = new Map(events.flatMap(({ index, event }) => {
          const change = completed[index];
          return change ? [[event.id, eventOf(change, event.time, event.id).body] as const] : [];
        }));
        await this.outbox.complete(bodies);
        await settle();
      },
    };
  }

  /**
   * Runs `write` with its changes recorded: ready once it returns; when it throws, dropped if the
   * interface refused it (a 4xx: nothing written), else kept if it committed all the same. The
   * entry point for any room's events (lint and score changes included).
   */
  async around<T>(changes: readonly Change[], check: CommitCheck, write: () => Promise<T>): Promise<T> {
    const pending = await this.pending(changes, check);
    let result: T;
    try {
      result = await write();
    } catch (error) {
      await (error instanceof ApiError && error.status < 500 ? pending?.drop() : pending?.settle());
      throw error;
    }
    await pending?.committed();
    return result;
  }
}
