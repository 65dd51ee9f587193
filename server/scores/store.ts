// The `scores` collection: one document per service of a version, `_id` `versionId:serviceId`,
// holding its last score card and, while something it reads has changed and the card is not made
// again yet, `pendingSince`. The marker is written before the work is queued, so a restart finds
// what was left to do (scorer.ts resumes it); it is cleared only if no newer change came meanwhile.
import type { Collection, Db } from 'mongodb';
import type { ScoreCard } from './card.ts';

export const SCORES_COLLECTION = 'scores';
/** A version's cards go with it when it is deleted; a copy starts without (its first write makes them). */
export const SCORES_COMPANION = { name: SCORES_COLLECTION, copied: false } as const;

export interface ScoreDocument {
  _id: string;
  versionId: string;
  serviceId: string;
  card?: ScoreCard;
  computedAt?: Date;
  /** When the oldest change not yet in the card was noted; absent: the card is current. */
  pendingSince?: Date;
  /** Counts changes noted, so that a card made from older records does not clear a newer mark. */
  changes: number;
}

export class ScoreStore {
  readonly #collection: Collection<ScoreDocument>;

  constructor(db: Db) {
    this.#collection = db.collection(SCORES_COLLECTION);
  }

  async createIndexes(): Promise<void> {
    // A version's cards (a deleted version's go, a resource write marks them all) and the pending ones at start-up.
    await this.#collection.createIndex({ versionId: 1 });
    await this.#collection.createIndex({ pendingSince: 1 }, { sparse: true });
  }

  /** Marks the service's card pending; the count of changes noted so far, which `store` compares. */
  async mark(versionId: string, serviceId: string): Promise<number> {
    const document = await this.#collection.findOneAndUpdate(
      { _id: keyOf(versionId, serviceId) },
      // $min keeps the oldest mark (and sets it where there is none).
      { $set: { versionId, serviceId }, $inc: { changes: 1 }, $min: { pendingSince: new Date() } },
      { upsert: true, returnDocument: 'after' },
    );
    return document!.changes;
  }

  /**
   * Marks every card of the version pending but those of `except`, and answers their services:
   * one update for them all (none when there are none, as in a version of one service), since a
   * record write's answer waits for it however many services the version holds.
   */
  async markVersion(versionId: string, except: ReadonlySet<string> = new Set()): Promise<string[]> {
    const others = (await this.#collection.find({ versionId, serviceId: { $nin: [...except] } }, { projection: { serviceId: 1 } }).toArray()).map(({ serviceId }) => serviceId);
    if (others.length > 0) await this.#collection.updateMany({ versionId, serviceId: { $in: others } }, { $inc: { changes: 1 }, $min: { pendingSince: new Date() } });
    return others;
  }

  /** Keeps the card; clears the mark when no change was noted after `changes`. */
  async store(versionId: string, serviceId: string, card: ScoreCard, changes: number): Promise<void> {
    await this.#collection.updateOne({ _id: keyOf(versionId, serviceId) }, { $set: { card, computedAt: new Date() } });
    await this.#collection.updateOne({ _id: keyOf(versionId, serviceId), changes }, { $unset: { pendingSince: '' } });
  }

  async changesOf(versionId: string, serviceId: string): Promise<number> {
    return (await this.#collection.findOne({ _id: keyOf(versionId, serviceId) }, { projection: { changes: 1 } }))?.changes ?? 0;
  }

  async of(versionId: string, serviceId: string): Promise<ScoreDocument | null> {
    return this.#collection.findOne({ _id: keyOf(versionId, serviceId) });
  }

  /** The card's score, read alone (undefined: no card yet). */
  async scoreOf(versionId: string, serviceId: string): Promise<number | undefined> {
    return (await this.#collection.findOne({ _id: keyOf(versionId, serviceId) }, { projection: { 'card.score': 1 } }))?.card?.score;
  }

  /** When the card was made, read alone (a card can weigh megabytes). */
  async computedAt(versionId: string, serviceId: string): Promise<Date | undefined> {
    return (await this.#collection.findOne({ _id: keyOf(versionId, serviceId) }, { projection: { computedAt: 1 } }))?.computedAt;
  }

  async forget(versionId: string, serviceId: string): Promise<void> {
    await this.#collection.deleteOne({ _id: keyOf(versionId, serviceId) });
  }

  /** The cards left pending (by a restart, or a failure), oldest first. */
  async pending(): Promise<{ versionId: string; serviceId: string }[]> {
    return this.#collection.find({ pendingSince: { $exists: true } }, { projection: { versionId: 1, serviceId: 1 }, sort: { pendingSince: 1 } }).toArray();
  }
}

/** The `_id` of a service's document. */
export function keyOf(versionId: string, serviceId: string): string {
  return `${versionId}:${serviceId}`;
}
