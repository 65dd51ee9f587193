// The change events room: a project's subscriptions and their deliveries (routes.ts); the events
// themselves are recorded by the other rooms' writes through ChangeEvents, wired in server/rooms.ts.
import type { Room } from '../routes/room.ts';
import { SUBSCRIPTIONS_TAG, subscriptionRoutes, type SubscriptionParts } from './routes.ts';

export function eventsRoom(parts: SubscriptionParts): Room {
  return { tags: [SUBSCRIPTIONS_TAG], routes: subscriptionRoutes(parts) };
}
