// GET {prefix}/services/{id}/score on both families: the service's stored score card, as the
// scorer last made it (scorer.ts), never made on the read; `pending` says a change is not in it yet.
import { RecordNotFound } from '../errors.ts';
import { serviceRoutes } from '../pipeline/service-routes.ts';
import type { Schema, Tag } from '../routes/documentation.ts';
import { FAMILIES, type Route } from '../routes/route.ts';
import { SCHEMA_BASE, type SchemaRegistry } from '../schemas/registry.ts';
import type { RecordStore } from '../store/records.ts';
import { storeOf } from '../store/stores.ts';
import type { ScoreStore } from './store.ts';

export const SCORES_TAG: Tag = {
  name: 'Scores',
  description: 'Each service\'s and operation\'s score, 0–100, from five subscores that say what to fix: documentation, security, agent readiness, findability (whether the operation\'s own texts find it in search) and confusability (look-alike operations). Made again when what they read changes, never on a read (docs/scores.md).',
};

const subscores: Schema = {
  type: 'object', description: 'Each 0–100.',
  properties: Object.fromEntries(['documentation', 'security', 'agentReadiness', 'findability', 'confusability'].map((name) => [name, { type: 'integer', minimum: 0, maximum: 100 }])),
};

export const SCORE_CARD: Schema = {
  type: 'object',
  required: ['service', 'pending'],
  properties: {
    service: { type: 'object', properties: { id: { type: 'string' }, slug: { type: 'string' } } },
    pending: { type: 'boolean', description: 'A change the card does not show yet is being scored (or none is made yet: then no other field but `service`).' },
    computedAt: { type: 'string', format: 'date-time' },
    score: { type: 'integer', minimum: 0, maximum: 100 },
    subscores,
    hit1: { type: 'number', description: 'Share of the probes ranking their operation first.' },
    hit5: { type: 'number', description: 'Share of the probes ranking their operation in the top 5.' },
    ranking: { enum: ['hybrid', 'lexical'], description: 'How the probes were ranked.' },
    probed: {
      type: 'object', required: ['operations', 'of'],
      properties: { operations: { type: 'integer', minimum: 0 }, of: { type: 'integer', minimum: 0 } },
      description: 'How many of the service\'s operations were probed: all of them, or an even spread of 300 in a larger service. An operation not probed has no `findability` or `confusability` subscore (its score weighs the other three) and no probes.',
    },
    hotspots: { type: 'array', items: { type: 'string' }, description: 'The lowest operations\' ids, lowest first.' },
    unfound: { type: 'array', items: { type: 'string' }, description: 'Operations none of whose probes finds them in the top 5.' },
    lookAlikes: { type: 'array', items: { type: 'object' }, description: 'Pairs of the service\'s operations a probe for one ranks the other first, with the probes and what tells them apart (`apart`: words, path segments, parameters).' },
    operations: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string' }, operationId: { type: 'string' }, method: { type: 'string' }, path: { type: 'string' },
          score: { type: 'integer' }, subscores, fixes: { type: 'object', description: 'By subscore: what would win points back.' },
          probes: { type: 'array', items: { type: 'object' } }, lookAlikes: { type: 'array', items: { type: 'object' } },
        },
      },
    },
  },
};

export interface ScoreRouteParts { schemas: SchemaRegistry; stores: ReadonlyMap<string, RecordStore>; scores: ScoreStore }

/** The service's card as answered (route, MCP, page). */
export async function scoreAnswer(scores: ScoreStore, versionId: string, service: { id: string; [key: string]: unknown }): Promise<Record<string, unknown>> {
  const stored = await scores.of(versionId, service.id);
  const head = { service: { id: service.id, slug: service['slug'] }, pending: !stored?.card || stored.pendingSince !== undefined };
  if (!stored?.card) return head;
  const { serviceId: _id, ...card } = stored.card;
  return { ...head, computedAt: stored.computedAt?.toISOString(), ...card };
}

export function scoreRoutes({ schemas, stores, scores }: ScoreRouteParts): Route[] {
  const services = storeOf(stores, 'services');
  return serviceRoutes(schemas, services, {
    segment: 'score', operationId: 'getServiceScore',
    doc: {
      tag: SCORES_TAG.name, summary: 'Get a service\'s score card',
      description: 'The service (by slug or `svc_` id) scored 0–100, with its subscores, its hotspots (lowest operations first), the operations no probe finds, its look-alike pairs and each operation\'s subscores with what to fix. Stored: made after an import or a record write to the service, or a new lint report, never on this read; `pending` says a change is still being scored.',
      responses: [{ status: 200, description: 'The score card.', schema: SCORE_CARD }],
    },
    async run(service, { version }) {
      return { status: 200, body: await scoreAnswer(scores, version.versionId, service) };
    },
  });
}
