// Calls still made to what is going away: per operation that is deprecated or has a sunset
// date, and per such parameter the call sent, by client where the report names one; with how
// many of their responses were seen and how many of those carried RFC 9745's `Deprecation` and
// RFC 8594's `Sunset` headers. Counted at ingest beside the observations (observations.ts keeps
// them), and laid beside the version's deprecated items for the lifecycle view.
import type { CatalogRecord } from '../store/records.ts';
import type { Call } from './reports.ts';

/** What one report adds for one item, operation and client. */
export interface LifecycleDelta {
  serviceId: string;
  /** The operation record's id. */
  operationId: string;
  /** `operation`, or the `par_` id of a parameter the calls sent. */
  item: string;
  /** The client that made the calls, `''` where the report does not say. */
  client: string;
  count: number;
  firstSeenAt: Date;
  lastSeenAt: Date;
  /** Calls whose response headers the report had, and of those, the ones with each header. */
  responses: number;
  deprecation: number;
  sunset: number;
}

/** How the going-away records of a version are found (RecordStore.withAnyOf): deprecated, or with a sunset date. */
export const GOING_AWAY = { deprecated: [true], sunset: 'set' } as const;

/** Whether a record says it is going away. */
export function goingAway(record: CatalogRecord): boolean {
  return record['deprecated'] === true || typeof record['sunset'] === 'string';
}

/** A parameter's name as calls are reported (`query:market`, headers in lower case). */
function sentName(parameter: CatalogRecord): string {
  const name = String(parameter['name']);
  return `${String(parameter['in'])}:${parameter['in'] === 'header' ? name.toLowerCase() : name}`;
}

export class LifecycleTally {
  /** The going-away parameters by the operation or path they belong to, by sent name. */
  readonly #parameters = new Map<string, Map<string, CatalogRecord>>();
  readonly #deltas = new Map<string, LifecycleDelta>();

  constructor(parameters: readonly CatalogRecord[]) {
    for (const parameter of parameters.filter(goingAway)) {
      const owner = String(parameter['operationId'] ?? parameter['pathId']);
      const named = this.#parameters.get(owner) ?? new Map<string, CatalogRecord>();
      named.set(sentName(parameter), parameter);
      this.#parameters.set(owner, named);
    }
  }

  /** Counts a call matched to `operation` of `serviceId`, for each going-away item it reached. */
  note(call: Call, serviceId: string, operation: CatalogRecord, time: Date): void {
    const items: string[] = goingAway(operation) ? ['operation'] : [];
    for (const name of call.sent ?? []) {
      // The operation's own parameter wins over its path's of the same name and place.
      const parameter = this.#parameters.get(operation.id)?.get(name) ?? this.#parameters.get(String(operation['pathId']))?.get(name);
      if (parameter) items.push(parameter.id);
    }
    for (const item of items) {
      const client = call.caller ?? '';
      const key = JSON.stringify([operation.id, item, client]);
      const delta = this.#deltas.get(key) ?? { serviceId, operationId: operation.id, item, client, count: 0, firstSeenAt: time, lastSeenAt: time, responses: 0, deprecation: 0, sunset: 0 };
      delta.count++;
      if (call.announced) {
        delta.responses++;
        if (call.announced.deprecation) delta.deprecation++;
        if (call.announced.sunset) delta.sunset++;
      }
      if (time < delta.firstSeenAt) delta.firstSeenAt = time;
      if (time > delta.lastSeenAt) delta.lastSeenAt = time;
      this.#deltas.set(key, delta);
    }
  }

  deltas(): LifecycleDelta[] {
    return [...this.#deltas.values()];
  }
}
