// The delivery worker, one per service process: every WEBHOOK_POLL_MS (and at once when this
// process records a committed event) it settles the events whose writer stopped before saying
// whether their write committed, then delivers what is due, the first undelivered event of each
// subscription and service only, so each receives a service's events in the order they were
// made. A failed attempt is tried again after WEBHOOK_RETRY_BASE_MS, doubling each time up to
// WEBHOOK_RETRY_MAX_MS, for as long as the subscription exists.
import { hostname } from 'node:os';
import type { WebhookConfig } from '../config.ts';
import { newId } from '../ids.ts';
import { outsideBudget } from '../store/budget.ts';
import { verdictOf, type CommitSources } from './commits.ts';
import type { Job, Outbox } from './outbox.ts';
import { send } from './send.ts';
import type { Subscriptions } from './subscriptions.ts';

/** Jobs looked at per round. */
const BATCH = 50;
/** How often each instance forgets what is older than WEBHOOK_KEEP_DAYS. */
const PRUNE_EVERY_MS = 3_600_000;

export interface WorkerParts {
  outbox: Outbox;
  subscriptions: Subscriptions;
  sources: CommitSources;
  config: WebhookConfig;
  log: (message: string, fields?: Record<string, unknown>) => void;
}

export class DeliveryWorker {
  readonly #parts: WorkerParts;
  /** This process among the instances, on each attempt it makes. */
  readonly instance = `${hostname()}:${process.pid}:${newId('')}`;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #again = false;
  #stopped = true;
  #prunedAt = 0;

  constructor(parts: WorkerParts) {
    this.#parts = parts;
  }

  start(): void {
    this.#stopped = false;
    this.wake();
  }

  /**
   * Runs a round now (or right after the one running). Woken by a write, the round and the
   * timer it leaves run outside that request's budget: they outlive its answer.
   */
  wake(): void {
    outsideBudget(() => this.#wake());
  }

  #wake(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    clearTimeout(this.#timer);
    this.#running = this.round()
      .catch((error: unknown) => this.#parts.log('event delivery: a round failed; the next one retries', { err: error }))
      .finally(() => {
        this.#running = undefined;
        if (this.#stopped) return;
        if (this.#again) {
          this.#again = false;
          this.wake();
        } else this.#timer = setTimeout(() => this.wake(), this.#parts.config.pollMs).unref();
      });
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  /** One round: settle pending events, then deliver what is due. */
  async round(now = new Date()): Promise<void> {
    await this.#settle(now);
    if (now.getTime() - this.#prunedAt > PRUNE_EVERY_MS) {
      this.#prunedAt = now.getTime();
      await this.#parts.outbox.prune(new Date(now.getTime() - this.#parts.config.keepMs));
    }
    const { outbox, subscriptions } = this.#parts;
    const due = await outbox.due(now, await subscriptions.paused(), BATCH);
    // The first due job of each order key; the rest of a key waits for it.
    const firsts = [...new Map(due.reverse().map((job) => [job.orderKey, job])).values()];
    await Promise.all(firsts.map((job) => this.#deliver(job)));
  }

  async #settle(now: Date): Promise<void> {
    const { outbox, sources, config } = this.#parts;
    const byEvent = new Map<string, Job>();
    const held = (job: Job) => job.holdUntil !== undefined && job.holdUntil > now.toISOString();
    for (const job of await outbox.pending(BATCH)) if (!byEvent.has(job.eventId) && !held(job)) byEvent.set(job.eventId, job);
    for (const job of byEvent.values()) {
      if (await verdictOf(job.check, sources) === 'committed') await outbox.ready([job.eventId]);
      else if (now.getTime() - Date.parse(job.recordedAt) > config.commitGraceMs) await outbox.drop([job.eventId]);
    }
  }

  async #deliver(job: Job): Promise<void> {
    const { outbox, subscriptions, config } = this.#parts;
    if (!(await outbox.isFirst(job))) return;
    const target = await subscriptions.target(job.subscriptionId);
    if (!target || target.paused) return;
    const attempt = await outbox.claim(job, this.instance, new Date(), config.leaseMs);
    if (!attempt) return;
    const outcome = await send({ url: target.url, secret: target.secret, eventId: job.eventId, body: job.body }, config);
    const delay = Math.min(config.retryMaxMs, config.retryBaseMs * 2 ** Math.min(attempt.attempt - 1, 30));
    await outbox.finish(job, attempt, outcome, new Date(Date.now() + delay));
    // The next event of the key is due now: no need to wait for the next poll.
    if (outcome.ok) this.#again = true;
  }
}
