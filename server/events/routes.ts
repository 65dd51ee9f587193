// A project's subscriptions over HTTP: create (its secret answered once), list, get, pause or
// resume, delete; each one's deliveries, and a redelivery. Changes need write access.
import { InvalidRequest, RecordNotFound } from '../errors.ts';
import type { Schema, Tag } from '../routes/documentation.ts';
import type { ProjectContext, QueryValues, Route } from '../routes/route.ts';
import { SCHEMA_BASE, type SchemaRegistry } from '../schemas/registry.ts';
import type { DeliveryAttempt, NewSubscription as NewSubscriptionBody } from '../schemas/generated/types.ts';
import { urlProblem } from './address-guard.ts';
import type { ChangeEvents } from './change-events.ts';
import type { EventType } from './events.ts';
import type { Attempt } from './outbox.ts';
import type { Subscription } from './subscriptions.ts';

export const SUBSCRIPTIONS_TAG: Tag = {
  name: 'Subscriptions',
  description: 'Change events: a project\'s subscriptions receive CloudEvents 1.0, signed the Standard Webhooks way, at least once and in order per service (docs/events.md).',
};

const SCHEMA = `${SCHEMA_BASE}api/subscription.json`;
const BASE = '/v2/catalog/projects/:projectRef/subscriptions';
const ITEM = `${BASE}/:id`;
const NOT_FOUND = 'Subscription not found';
const MAX_LIMIT = 1000;
const DEFAULT_LIMIT = 100;

export interface SubscriptionParts { schemas: SchemaRegistry; events: ChangeEvents; allowPrivate: boolean }

export function subscriptionRoutes({ schemas, events, allowPrivate }: SubscriptionParts): Route[] {
  const checkId = schemas.check(`${SCHEMA}#/$defs/subscriptionId`);
  const params: Readonly<Record<string, Schema>> = { projectRef: { $ref: `${SCHEMA_BASE}defs/ids.json#/$defs/projectRef` } };
  const itemParams = { ...params, id: { $ref: `${SCHEMA}#/$defs/subscriptionId` } };
  const tag = SUBSCRIPTIONS_TAG.name;
  const one = { $ref: SCHEMA };
  const notFound = new RecordNotFound(NOT_FOUND);
  const found = async (projectId: string, id: string): Promise<Subscription> => {
    const subscription = await events.subscriptions.get(projectId, id);
    if (!subscription) throw notFound;
    return subscription;
  };
  return [
    {
      method: 'POST', path: BASE, target: 'project', access: 'write', body: 'json',
      doc: {
        operationId: 'createSubscription', tag, params,
        summary: 'Subscribe to change events',
        description: 'The answer carries `secret`, the `whsec_…` key every delivery is signed with; it is not shown again.',
        body: { schema: { $ref: `${SCHEMA}#/$defs/subscriptionCreate` }, example: { url: 'https://hooks.example.com/catalog', types: ['catalog.service.changed'], services: ['petstore'] } },
        responses: [{ status: 201, description: 'The subscription, with its secret; `Location` names it.', schema: one }],
        errors: [],
      },
      async run({ projectId, body }: ProjectContext<QueryValues, NewSubscriptionBody>) {
        const problem = urlProblem(body.url, allowPrivate);
        if (problem) throw InvalidRequest.field('/url', problem);
        const made = await events.subscriptions.create(projectId, { url: body.url, types: body.types as EventType[], ...(body.services && { services: body.services }) });
        return { status: 201, body: { ...shown(made), secret: made.secret }, headers: { Location: `/v2/catalog/projects/${projectId}/subscriptions/${made.id}` } };
      },
    },
    {
      method: 'GET', path: BASE, target: 'project', access: 'read', body: false,
      doc: { operationId: 'listSubscriptions', tag, params, summary: "List a project's subscriptions", responses: [{ status: 200, description: 'The subscriptions.', schema: { $ref: `${SCHEMA}#/$defs/subscriptionList` } }], errors: [] },
      run: async ({ projectId }) => ({ status: 200, body: { items: (await events.subscriptions.list(projectId)).map(shown) } }),
    },
    {
      method: 'GET', path: ITEM, target: 'project', access: 'read', body: false, checkId,
      doc: { operationId: 'getSubscription', tag, params: itemParams, summary: 'Get a subscription', responses: [{ status: 200, description: 'The subscription, its secret left out.', schema: one }], errors: [notFound] },
      run: async ({ projectId, id }) => ({ status: 200, body: shown(await found(projectId, id)) }),
    },
    {
      method: 'PATCH', path: ITEM, target: 'project', access: 'write', body: 'json', checkId,
      doc: {
        operationId: 'pauseSubscription', tag, params: itemParams,
        summary: 'Pause or resume a subscription',
        description: 'While paused, its events are kept, not sent; resumed, it receives them in order.',
        body: { schema: { type: 'object', additionalProperties: false, required: ['paused'], properties: { paused: { type: 'boolean', description: '`true` pauses, `false` resumes.' } } }, example: { paused: true } },
        responses: [{ status: 200, description: 'The subscription.', schema: one }],
        errors: [notFound],
      },
      async run({ projectId, id, body }: ProjectContext<QueryValues, { paused: boolean }>) {
        const changed = await events.subscriptions.setPaused(projectId, id, body.paused);
        if (!changed) throw notFound;
        if (!body.paused) events.worker.wake();
        return { status: 200, body: shown(changed) };
      },
    },
    {
      method: 'DELETE', path: ITEM, target: 'project', access: 'write', body: false, checkId,
      doc: { operationId: 'deleteSubscription', tag, params: itemParams, summary: 'Delete a subscription', description: 'Its undelivered events and its deliveries log go with it.', responses: [{ status: 204, description: 'Deleted; no body.' }], errors: [notFound] },
      async run({ projectId, id }) {
        if (!(await events.subscriptions.delete(projectId, id))) throw notFound;
        await events.outbox.forget(id);
        return { status: 204 };
      },
    },
    {
      method: 'GET', path: `${ITEM}/deliveries`, target: 'project', access: 'read', body: false, checkId,
      doc: {
        operationId: 'listDeliveries', tag, params: itemParams,
        summary: "List a subscription's deliveries",
        description: 'Every attempt at every event: its HTTP status, how long it took, which attempt it was; newest event first.',
        query: [
          { name: 'cursor', description: 'Continue from this attempt: the `nextCursor` of the previous page.', schema: { type: 'string', minLength: 1, maxLength: 200 } },
          { name: 'limit', description: `Page size, 1 to ${MAX_LIMIT}; default ${DEFAULT_LIMIT}.`, schema: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT }, invalid: `must be an integer from 1 to ${MAX_LIMIT}` },
        ],
        responses: [{ status: 200, description: 'One page of attempts.', schema: { $ref: `${SCHEMA}#/$defs/deliveryList` } }],
        errors: [notFound],
      },
      async run({ projectId, id, query: { cursor, limit } }: ProjectContext<{ cursor?: string; limit: number }>) {
        await found(projectId, id);
        const page = await events.outbox.deliveries(id, limit + 1, cursor);
        const items = page.slice(0, limit).map(attemptJson);
        const nextCursor = page.length > limit ? items.at(-1)!.id : null;
        return { status: 200, body: { items, pagination: { nextCursor, hasMore: nextCursor !== null, limit } } };
      },
    },
    {
      method: 'POST', path: `${ITEM}/redeliver`, target: 'project', access: 'write', body: 'json', checkId,
      doc: {
        operationId: 'redeliverEvent', tag, params: itemParams,
        summary: 'Send an event again',
        description: 'The event goes out again at once (with the same `id`), whether its last attempt delivered it or not.',
        body: { schema: { $ref: `${SCHEMA}#/$defs/redelivery` }, example: { eventId: 'evt_01JD0000000000000000000000' } },
        responses: [{ status: 202, description: 'Due now; its attempts are listed under deliveries.' }],
        errors: [notFound],
      },
      async run({ projectId, id, body }: ProjectContext<QueryValues, { eventId: string }>) {
        await found(projectId, id);
        if (!(await events.outbox.redeliver(id, body.eventId))) throw InvalidRequest.field('/eventId', 'is no event this subscription was sent');
        events.worker.wake();
        return { status: 202 };
      },
    },
  ];
}

/** A subscription as the interface shows it: its secret only in the creation's answer. */
function shown({ secret: _secret, createdAt, ...fields }: Subscription): Record<string, unknown> {
  return { ...fields, createdAt: createdAt.toISOString() };
}

function attemptJson(attempt: Attempt): DeliveryAttempt {
  return {
    id: attempt._id, eventId: attempt.eventId, type: attempt.type as DeliveryAttempt['type'], subject: attempt.subject, attempt: attempt.attempt, startedAt: attempt.startedAt,
    ...(attempt.status !== undefined && { status: attempt.status }), ...(attempt.ok !== undefined && { ok: attempt.ok }),
    ...(attempt.error !== undefined && { error: attempt.error }), ...(attempt.durationMs !== undefined && { durationMs: attempt.durationMs }),
  };
}
