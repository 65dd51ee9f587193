// Change events as subscribers receive them: CloudEvents 1.0 in structured JSON mode, one type
// per kind of change. `data` says where to read the change itself (the changes report, the
// record, the version), never carries it whole: an event stays small whatever the write was.
import { CloudEvent } from 'cloudevents';
import { newId } from '../ids.ts';

/** The kinds of change a subscription may ask for. */
export const EVENT_TYPES = [
  'catalog.service.imported',
  'catalog.service.changed',
  'catalog.service.lifecycle_changed',
  'catalog.version.created',
  'catalog.version.copied',
  'catalog.version.deleted',
  'catalog.records.changed',
  'catalog.service.lint_changed',
  'catalog.service.score_changed',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** The prefix of event ids: also the `webhook-id` of each delivery, the same on every retry. */
export const EVENT_ID_PREFIX = 'evt_';

/** What a change says about itself; the event's envelope is made from it. */
export interface Change {
  type: EventType;
  projectId: string;
  /** The version written; absent for a version not made yet (its address is the subject). */
  versionId?: string;
  /** What changed: a service id, a version id or address, `<collection>/<record id>`. */
  subject: string;
  /** The service the change is about, when there is one: its events are delivered in order, and subscriptions may ask for it by slug or id. */
  service?: { id: string; slug?: string };
  data: Readonly<Record<string, unknown>>;
}

/** One event as recorded and sent: its id, the time it was made, and its JSON (CloudEvents, structured mode). */
export interface RecordedEvent {
  id: string;
  type: EventType;
  subject: string;
  /** Events with the same key are delivered to a subscription one after another, in the order made. */
  orderKey: string;
  /** When it was made: `time`, kept so that the event can be made again with more in its `data` (same id, same time). */
  time: Date;
  body: string;
}

/** The CloudEvent of a change, checked by the `cloudevents` package against the 1.0 specification. */
export function eventOf(change: Change, time = new Date(), id = newId(EVENT_ID_PREFIX)): RecordedEvent {
  const event = new CloudEvent({
    specversion: '1.0',
    id,
    source: `/v2/catalog/projects/${change.projectId}`,
    type: change.type,
    subject: change.subject,
    time: time.toISOString(),
    datacontenttype: 'application/json',
    data: { projectId: change.projectId, ...(change.versionId !== undefined && { versionId: change.versionId }), ...change.data },
  });
  event.validate();
  return {
    id, type: change.type, subject: change.subject, orderKey: change.service?.id ?? change.versionId ?? change.subject, time,
    body: JSON.stringify(event.toJSON()),
  };
}
