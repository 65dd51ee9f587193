// The outbox: each event recorded with the write that causes it, one job per subscription that
// wants it, and each attempt at delivering a job (the deliveries log). MongoDB and FerretDB give
// no transaction across two documents here, so an event is recorded BEFORE its write, pending,
// with what shows the write committed (commits.ts: the revision it gives its version, the
// record or version it leaves); the writer makes it ready right after, and an instance that
// died in between leaves it to the worker, which makes it ready when the write shows and drops
// it when it never did. Attempts are claimed by inserting the attempt's own document (its `_id`
// is the job and the attempt's number): a unique insert is atomic on FerretDB too, where a
// compare-and-set by update can succeed twice (docs/database.md), so two instances make each
// attempt once.
import type { Collection, Db } from 'mongodb';
import type { CommitCheck } from './commits.ts';
import type { RecordedEvent } from './events.ts';

export type JobState = 'pending' | 'ready' | 'delivered' | 'void';

export interface Job {
  _id: string;
  eventId: string;
  subscriptionId: string;
  projectId: string;
  /** The subscription and the event's order key: a job waits for every earlier one of its key. */
  orderKey: string;
  type: string;
  subject: string;
  body: string;
  state: JobState;
  check: CommitCheck;
  /** Attempts made so far. */
  attempts: number;
  /** ISO: a pending job whose `data` is still being made (an import's changes report) is left alone until then. */
  holdUntil?: string;
  /** ISO: when the job may be tried next (strings: FerretDB pushes string ranges down to SQLite, not date ones). */
  nextAt: string;
  recordedAt: string;
}

/** One attempt at a delivery, as logged and listed per subscription. */
export interface Attempt {
  _id: string;
  jobId: string;
  eventId: string;
  subscriptionId: string;
  type: string;
  subject: string;
  attempt: number;
  instance: string;
  startedAt: string;
  leaseUntil: string;
  /** The receiver's HTTP status; absent when it gave none (refused, timed out) or the attempt is under way. */
  status?: number;
  ok?: boolean;
  error?: string;
  durationMs?: number;
}

/** What the delivery of an attempt came to. */
export interface Outcome { ok: boolean; status?: number; error?: string; durationMs: number }

const DUPLICATE_KEY = 11000;

export class Outbox {
  readonly jobs: Collection<Job>;
  readonly attempts: Collection<Attempt>;

  constructor(db: Db) {
    this.jobs = db.collection('event_outbox');
    this.attempts = db.collection('event_deliveries');
  }

  /** One index per call: FerretDB drops the connection on a createIndexes naming several existing ones. */
  async createIndexes(): Promise<void> {
    await this.jobs.createIndex({ state: 1, nextAt: 1 }, { name: 'state_next' });
    await this.jobs.createIndex({ orderKey: 1, eventId: 1 }, { name: 'order' });
    await this.jobs.createIndex({ subscriptionId: 1, eventId: 1 }, { name: 'subscription_event' });
    await this.attempts.createIndex({ subscriptionId: 1, _id: -1 }, { name: 'subscription' });
  }

  /** Records the events, pending, for each subscription named; before the write that causes them. */
  async record(projectId: string, events: readonly { event: RecordedEvent; subscriptionIds: readonly string[] }[], check: CommitCheck, now = new Date(), holdUntil?: Date): Promise<string[]> {
    const jobs: Job[] = events.flatMap(({ event, subscriptionIds }) => subscriptionIds.map((subscriptionId): Job => ({
      _id: `${event.id}:${subscriptionId}`, eventId: event.id, subscriptionId, projectId, orderKey: `${subscriptionId}:${event.orderKey}`,
      type: event.type, subject: event.subject, body: event.body, state: 'pending', check, attempts: 0,
      nextAt: now.toISOString(), recordedAt: now.toISOString(), ...(holdUntil && { holdUntil: holdUntil.toISOString() }),
    })));
    if (jobs.length > 0) await this.jobs.insertMany(jobs, { ordered: false });
    return [...new Set(jobs.map(({ eventId }) => eventId))];
  }

  /**
   * The write committed: its events are ready. Unconditional on `void`: a write that outlasted
   * the commit grace was dropped by the worker, and is taken back now that it committed.
   */
  async ready(eventIds: readonly string[]): Promise<void> {
    if (eventIds.length > 0) await this.jobs.updateMany({ eventId: { $in: [...eventIds] }, state: { $in: ['pending', 'void'] } }, { $set: { state: 'ready' } });
  }

  /** The events made again with more in their `data`, no longer held; not once delivered. */
  async complete(bodies: ReadonlyMap<string, string>): Promise<void> {
    for (const [eventId, body] of bodies) {
      await this.jobs.updateMany({ eventId, state: { $in: ['pending', 'ready', 'void'] } }, { $set: { body }, $unset: { holdUntil: '' } });
    }
  }

  /** The write failed before committing: its events go. */
  async drop(eventIds: readonly string[]): Promise<void> {
    if (eventIds.length > 0) await this.jobs.updateMany({ eventId: { $in: [...eventIds] }, state: 'pending' }, { $set: { state: 'void' } });
  }

  /** Pending jobs, oldest first: events whose writer has not said yet whether the write committed. */
  pending(limit: number): Promise<Job[]> {
    return this.jobs.find({ state: 'pending' }).sort({ eventId: 1 }).limit(limit).toArray();
  }

  /** Jobs due, oldest event first, leaving out held subscriptions'. */
  due(now: Date, held: readonly string[], limit: number): Promise<Job[]> {
    return this.jobs.find({ state: 'ready', nextAt: { $lte: now.toISOString() }, ...(held.length > 0 && { subscriptionId: { $nin: [...held] } }) })
      .sort({ eventId: 1 }).limit(limit).toArray();
  }

  /** Whether the job is the first of its order key still to deliver (pending ones count: they may yet commit). */
  async isFirst(job: Job): Promise<boolean> {
    const first = await this.jobs.find({ orderKey: job.orderKey, state: { $in: ['pending', 'ready'] } }).sort({ eventId: 1 }).limit(1).next();
    return first?._id === job._id;
  }

  /**
   * Claims the job's next attempt for this instance: the attempt's number is the job's count
   * plus one, or past an attempt another instance left unfinished beyond its lease. Null when
   * another instance holds it, or an attempt already delivered it (the job then says so).
   */
  async claim(job: Job, instance: string, now: Date, leaseMs: number): Promise<Attempt | null> {
    for (let number = job.attempts + 1; number <= job.attempts + 10; number++) {
      const attempt: Attempt = {
        _id: `${job._id}#${String(number).padStart(6, '0')}`, jobId: job._id, eventId: job.eventId, subscriptionId: job.subscriptionId,
        type: job.type, subject: job.subject, attempt: number, instance, startedAt: now.toISOString(), leaseUntil: new Date(now.getTime() + leaseMs).toISOString(),
      };
      try {
        await this.attempts.insertOne(attempt);
        return attempt;
      } catch (error) {
        if ((error as { code?: number }).code !== DUPLICATE_KEY) throw error;
      }
      const taken = await this.attempts.findOne({ _id: attempt._id });
      if (taken?.ok === true) {
        await this.jobs.updateOne({ _id: job._id }, { $set: { state: 'delivered', attempts: number } });
        return null;
      }
      const finished = taken !== null && (taken.durationMs !== undefined || taken.leaseUntil < now.toISOString());
      if (!finished) return null;
    }
    return null;
  }

  /** What an attempt came to: logged on the attempt, then the job delivered or due again at `retryAt`. */
  async finish(job: Job, attempt: Attempt, outcome: Outcome, retryAt: Date): Promise<void> {
    await this.attempts.updateOne({ _id: attempt._id }, { $set: {
      ok: outcome.ok, durationMs: outcome.durationMs,
      ...(outcome.status !== undefined && { status: outcome.status }), ...(outcome.error !== undefined && { error: outcome.error }),
    } });
    await this.jobs.updateOne({ _id: job._id }, { $set: outcome.ok
      ? { state: 'delivered', attempts: attempt.attempt }
      : { attempts: attempt.attempt, nextAt: retryAt.toISOString() } });
  }

  /** A subscription's attempts, newest first, from `before` (an attempt id) on. */
  deliveries(subscriptionId: string, limit: number, before?: string): Promise<Attempt[]> {
    return this.attempts.find({ subscriptionId, ...(before !== undefined && { _id: { $lt: before } }) }).sort({ _id: -1 }).limit(limit).toArray();
  }

  /** Sends the subscription's event again, now (delivered or not); false when it never had it. */
  async redeliver(subscriptionId: string, eventId: string, now = new Date()): Promise<boolean> {
    const { matchedCount } = await this.jobs.updateOne(
      { _id: `${eventId}:${subscriptionId}`, state: { $in: ['ready', 'delivered'] } },
      { $set: { state: 'ready', nextAt: now.toISOString() } },
    );
    return matchedCount > 0;
  }

  /** Forgets what is settled and older than `before`: delivered and dropped jobs, and attempts (a job still retrying counts on from its own count). */
  async prune(before: Date): Promise<void> {
    const cutoff = before.toISOString();
    await this.jobs.deleteMany({ state: { $in: ['delivered', 'void'] }, recordedAt: { $lt: cutoff } });
    await this.attempts.deleteMany({ startedAt: { $lt: cutoff } });
  }

  /** A deleted subscription's jobs and log go with it. */
  async forget(subscriptionId: string): Promise<void> {
    await this.jobs.deleteMany({ subscriptionId });
    await this.attempts.deleteMany({ subscriptionId });
  }
}
