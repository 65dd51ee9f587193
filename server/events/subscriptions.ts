// A project's subscriptions: a URL, the event types it wants, optionally the services it is
// about, and the secret its deliveries are signed with (Standard Webhooks' `whsec_…`), which the
// interface shows once, when the subscription is made. A paused subscription's events are kept
// and held, delivered once it is resumed.
import { randomBytes } from 'node:crypto';
import type { Collection, Db } from 'mongodb';
import { newId } from '../ids.ts';
import type { EventType } from './events.ts';

export const SUBSCRIPTION_ID_PREFIX = 'sub_';

export interface Subscription {
  id: string;
  projectId: string;
  url: string;
  types: EventType[];
  /** Services (slugs or `svc_` ids) the subscription is about; absent: every service. */
  services?: string[];
  paused: boolean;
  createdAt: Date;
  /** Signs the deliveries; answered once, at creation. */
  secret: string;
}

interface SubscriptionDocument extends Omit<Subscription, 'id'> { _id: string }

export interface NewSubscription { url: string; types: EventType[]; services?: string[] }

export class Subscriptions {
  readonly #collection: Collection<SubscriptionDocument>;

  constructor(db: Db) {
    this.#collection = db.collection('subscriptions');
  }

  async createIndexes(): Promise<void> {
    await this.#collection.createIndex({ projectId: 1, _id: 1 }, { name: 'project_id' });
  }

  async create(projectId: string, made: NewSubscription): Promise<Subscription> {
    const subscription: Subscription = {
      id: newId(SUBSCRIPTION_ID_PREFIX), projectId, url: made.url, types: [...made.types],
      ...(made.services && { services: [...made.services] }),
      // 24 random bytes, as Standard Webhooks' own libraries make them.
      paused: false, createdAt: new Date(), secret: `whsec_${randomBytes(24).toString('base64')}`,
    };
    const { id, ...fields } = subscription;
    await this.#collection.insertOne({ _id: id, ...fields });
    return subscription;
  }

  /** The project's subscriptions in creation order. */
  async list(projectId: string): Promise<Subscription[]> {
    return (await this.#collection.find({ projectId }).sort({ _id: 1 }).toArray()).map(subscriptionOf);
  }

  async get(projectId: string, id: string): Promise<Subscription | null> {
    const found = await this.#collection.findOne({ _id: id, projectId });
    return found ? subscriptionOf(found) : null;
  }

  /** Null when there is no such subscription in the project. */
  async setPaused(projectId: string, id: string, paused: boolean): Promise<Subscription | null> {
    const { matchedCount } = await this.#collection.updateOne({ _id: id, projectId }, { $set: { paused } });
    return matchedCount === 0 ? null : this.get(projectId, id);
  }

  async delete(projectId: string, id: string): Promise<boolean> {
    return (await this.#collection.deleteOne({ _id: id, projectId })).deletedCount > 0;
  }

  /** The ids of the paused subscriptions (of every project): their events are held. */
  async paused(): Promise<string[]> {
    return (await this.#collection.find({ paused: true }, { projection: { _id: 1 } }).toArray()).map(({ _id }) => _id);
  }

  /** A subscription's secret and URL, for a delivery; null when it was deleted. */
  async target(id: string): Promise<Pick<Subscription, 'url' | 'secret' | 'paused'> | null> {
    return this.#collection.findOne({ _id: id }, { projection: { url: 1, secret: 1, paused: 1 } });
  }

  /** The project's subscriptions that want a change of this type (about this service, when it names one). */
  async wanting(projectId: string, type: EventType, service?: { id: string; slug?: string }): Promise<Subscription[]> {
    const all = await this.list(projectId);
    return all.filter((subscription) => subscription.types.includes(type) && (
      !subscription.services || !service || subscription.services.includes(service.id) || (service.slug !== undefined && subscription.services.includes(service.slug))
    ));
  }
}

function subscriptionOf({ _id, ...fields }: SubscriptionDocument): Subscription {
  return { id: _id, ...fields };
}
