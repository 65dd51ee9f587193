// Generated from schemas/ by `npm run types`; do not edit.
// Change the JSON Schema files instead and rerun `npm run types` (npm test fails when stale).

/**
 * What changes for the clients of a service when they move from one state of the catalog to another (a version to another, or the catalog to an imported document), computed from each service's OpenAPI export on both sides. Ordered by service slug, path, method (document-wide changes first within a service).
 *
 * From schemas/api/changes.json.
 */
export interface ChangesForClients {
  /**
   * How many changes of each level.
   */
  summary: {
    /**
     * Changes that can break an existing client.
     */
    breaking: number;
    /**
     * Changes an existing client can ignore.
     */
    nonBreaking: number;
    /**
     * Of the non-breaking changes, the removals that were announced: of something deprecated, on or after its sunset date or with none (`lifecycle: removed_after_sunset`).
     */
    planned: number;
  };
  /**
   * Each change where a client meets it: by service slug, path, method, then rule.
   */
  changes: Change[];
}

/**
 * One change, where a client meets it.
 *
 * From schemas/api/changes.json#/$defs/change.
 */
export interface Change {
  /**
   * The service (its id on the newer side when it exists there).
   */
  service: {
    /**
     * The `svc_` id.
     */
    id: ServiceId;
    /**
     * The service slug, by which the two sides are matched.
     */
    slug: string;
  };
  /**
   * Whether an existing client can break.
   */
  level: "breaking" | "non-breaking";
  /**
   * A stable identifier of the kind of change, e.g. `request-parameter-became-required` (docs/changes.md lists them).
   */
  rule: string;
  /**
   * The operation the change reaches; null for document-wide changes (servers, security).
   */
  operation: {
    /**
     * HTTP method in upper case.
     */
    method: string;
    /**
     * The path template.
     */
    path: string;
    /**
     * The operation's operationId, null when it has none.
     */
    operationId: string | null;
  } | null;
  /**
   * One sentence a person understands.
   */
  message: string;
  /**
   * Where the change stands in the life of what it reaches (docs/changes.md, "Deprecation and sunset"): `deprecated` (it was made deprecated), `sunset_changed` (its `x-sunset` date was set, moved or dropped), and for a removal of an operation, a parameter or a body property, `removed_not_deprecated` (breaking), `removed_before_sunset` (deprecated, removed before its sunset date: breaking) or `removed_after_sunset` (deprecated, removed on or after its sunset date or with none: planned, non-breaking).
   */
  lifecycle?:
    "deprecated" | "sunset_changed" | "removed_not_deprecated" | "removed_before_sunset" | "removed_after_sunset";
}

/**
 * Body of every error response: `error` and optionally `details`, no other fields.
 *
 * From schemas/api/error.json.
 */
export interface Error {
  /**
   * Name of the error outcome, for example `Invalid request` or `Path not found`.
   */
  error: string;
  /**
   * Any JSON value giving details. For validation errors: a list of `{ "field", "message" }` objects (field is a JSON pointer into the body, or the query parameter name).
   */
  details?: unknown;
}

/**
 * What an import of an OpenAPI document did to its service's records, or would do (dryRun).
 *
 * From schemas/api/import-report.json.
 */
export interface ImportAnswer {
  /**
   * The service the document was imported into.
   */
  service: {
    /**
     * The `svc_` id.
     */
    id: ServiceId;
    /**
     * The service's slug (its natural key).
     */
    slug: string;
  };
  /**
   * True when nothing was written: the answer is the plan.
   */
  dryRun: boolean;
  /**
   * Records created, updated, deleted and unchanged, per collection.
   */
  records: {
    [k: string]: RecordCounts;
  };
  /**
   * With `dryRun=true` or `failOn`: what the import changes for clients of the service as the catalog holds it now.
   */
  changes?: ChangesForClients;
  /**
   * With `dryRun=true` or `minScore`: the service's score card before the import (when it has one) and after it, as `{score, subscores}` each, and `delta`, after less before (docs/scores.md; findability asked by the index alone, against the version's other services).
   */
  score?: {
    /**
     * The service's score and subscores as stored before the import; absent for a service not scored yet.
     */
    before?: ScoreSummary;
    /**
     * The score and subscores the description as imported would give the service.
     */
    after: ScoreSummary;
    /**
     * `after.score` less `before.score`; absent without `before`.
     */
    delta?: number;
  };
  /**
   * What the records could not carry, by JSON pointer into the document.
   */
  warnings: ImportWarning[];
  /**
   * With `dryRun=true` or `failOn=lint-error`: the lint counts of the description as imported, and the findings it adds and fixes against the service's stored lint; `timedOutAfterMs` when the lint was stopped at `LINT_TIMEOUT_MS` (nothing is known of the findings then).
   */
  lint?: {
    /**
     * The description's findings by severity (error, warn, info, hint) under the project's lint settings.
     */
    counts: {
      [k: string]: number;
    };
    /**
     * Findings the description has that the service's stored lint has not: `{code, severity, message, path}` each.
     */
    new: {
      [k: string]: unknown;
    }[];
    /**
     * Findings of the service's stored lint that the description no longer has.
     */
    fixed: {
      [k: string]: unknown;
    }[];
    /**
     * The lint was stopped at its bound (`LINT_TIMEOUT_MS`) after this many milliseconds: the counts are zero and the lists empty because nothing is known, not because the description is clean.
     */
    timedOutAfterMs?: number;
    /**
     * The description as imported is the one the service's stored lint saw, under the same lint settings: the answer is the stored one (its findings, or its stop at the bound), not linted again. Absent when the description was linted for this request.
     */
    unchanged?: true;
  };
}

/**
 * A score card's score and subscores.
 *
 * From schemas/api/import-report.json#/$defs/scoreSummary.
 */
export interface ScoreSummary {
  /**
   * 0–100 (docs/scores.md).
   */
  score: number;
  /**
   * Each subscore by name (documentation, security, agentReadiness, findability, confusability), 0–100.
   */
  subscores: {
    [k: string]: number;
  };
}

/**
 * How many records of one collection the import created, updated, deleted or left unchanged.
 *
 * From schemas/api/import-report.json#/$defs/recordCounts.
 */
export interface RecordCounts {
  /**
   * Records the import created.
   */
  created: number;
  /**
   * Records the import changed.
   */
  updated: number;
  /**
   * Records of the service the document no longer has, deleted.
   */
  deleted: number;
  /**
   * Records the document matches as stored: not written.
   */
  unchanged: number;
}

/**
 * Something of the document that no record could carry.
 *
 * From schemas/api/import-report.json#/$defs/importWarning.
 */
export interface ImportWarning {
  /**
   * JSON pointer into the imported document.
   */
  pointer: string;
  /**
   * What could not be carried, and why.
   */
  message: string;
}

/**
 * The service an analyzer reports for from now on.
 *
 * From schemas/api/insights.json#/$defs/connectionRequest.
 */
export interface ConnectionRequest {
  /**
   * The service's slug or `svc_` id.
   */
  service: string;
}

/**
 * A service's analyzer connection after the change: what the caller set, not the whole Service record.
 *
 * From schemas/api/insights.json#/$defs/connection.
 */
export interface Connection {
  /**
   * The service the connection is for.
   */
  service: {
    /**
     * The service's `svc_` id.
     */
    id: ServiceId;
    /**
     * The service's slug.
     */
    slug: ServiceSlug;
  };
  /**
   * Whether an analyzer reports for the service: true after a connection.
   */
  hasConnection: boolean;
  /**
   * When the analyzer last connected (this call); null if never.
   */
  lastConnectionAt: string | null;
}

/**
 * What a report counted.
 *
 * From schemas/api/insights.json#/$defs/reportAnswer.
 */
export interface ReportAnswer {
  /**
   * Calls in the report: HAR entries, server spans with HTTP attributes, NDJSON lines (client spans only mention the service they called).
   */
  received: number;
  /**
   * Calls matched to a documented operation.
   */
  matched: number;
  /**
   * Calls of a known service that no documented operation matches: the endpoints view lists them as `shadow` endpoints.
   */
  shadow: number;
  /**
   * Calls kept nowhere: of no known service, or answered 404 on a path no operation documents (a path nobody serves is not an endpoint). `received` is `matched` + `shadow` + `unmatched`.
   */
  unmatched: number;
  /**
   * Shadow calls whose observed path was stored as a template: each segment where the service documents a parameter, or that looks like an identifier (a number, UUID, ULID, hex string or random token such as Spotify's `3cEYpjA9oz9GiPac4AsH4n`), replaced by a parameter, so calls of one undocumented endpoint with different ids are one shadow endpoint and no id or secret in a path is stored.
   */
  grouped: {
    /**
     * Shadow calls of this report stored under a template rather than their observed path.
     */
    calls: number;
    /**
     * The distinct shadow endpoints (method and template) those calls were grouped into.
     */
    templates: number;
  };
  /**
   * True when the Idempotency-Key was already counted: nothing was counted again, and the counts are the first report's.
   */
  duplicate: boolean;
}

/**
 * How often and how lately the endpoint was called, by all reports of the version; null when never.
 *
 * From schemas/api/insights.json#/$defs/observed.
 */
export type Observed = {
  /**
   * Calls observed.
   */
  count: number;
  /**
   * When the latest call was made.
   */
  lastSeenAt: string;
} | null;

/**
 * One page of the endpoints view, ordered by service slug, path and method.
 *
 * From schemas/api/insights.json#/$defs/endpointsPage.
 */
export interface EndpointsPage {
  /**
   * The endpoints of this page.
   */
  items: EndpointInsight[];
  /**
   * The cursor of the next page (opaque: pass it back as `cursor`).
   */
  pagination: PaginationMetadata;
}

/**
 * A documented operation with what was observed of it, or an undocumented method and path that was called (shadow).
 *
 * From schemas/api/insights.json#/$defs/endpointInsight.
 */
export interface EndpointInsight {
  /**
   * The service the endpoint belongs to.
   */
  service: {
    /**
     * The `svc_` id.
     */
    id: ServiceId;
    /**
     * The service's slug.
     */
    slug: string;
  };
  /**
   * The documented operation; null for a shadow endpoint.
   */
  operation: {
    /**
     * The `op_` id.
     */
    id: OperationId;
    /**
     * The operation's stable identifier string.
     */
    operationId: string;
    /**
     * HTTP method in lower case, as recorded.
     */
    method: string;
    /**
     * Whether the operation is deprecated.
     */
    deprecated: boolean;
  } | null;
  /**
   * HTTP method in upper case.
   */
  method: string;
  /**
   * The path template (below the server's base path); for a shadow endpoint the observed path as a template: where the service documents a parameter at that place (after the same literal segments), that parameter (`/playlists/{playlist_id}/followers`); elsewhere numbers, UUIDs, ULIDs, hex strings and random tokens folded to `{id}`.
   */
  path: string;
  /**
   * active: documented, called since `since`; zombie: deprecated and called since `since`; orphan: documented, not called since `since` while the service has a connection; unobserved: documented, not called, no connection; shadow: called, documented by no operation.
   */
  status: "active" | "zombie" | "orphan" | "unobserved" | "shadow";
  /**
   * Calls observed in all (not only since `since`).
   */
  count: number;
  /**
   * The earliest call observed, or null.
   */
  firstSeenAt: string | null;
  /**
   * The latest call observed, or null.
   */
  lastSeenAt: string | null;
  /**
   * Calls per response status code (calls whose report gave none are not here).
   */
  statusCodes: {
    [k: string]: number;
  };
}

/**
 * Who still calls what is deprecated or sunset, ordered by service slug, path, method, the operation before its parameters.
 *
 * From schemas/api/insights.json#/$defs/lifecycleInsights.
 */
export interface LifecycleInsights {
  /**
   * One per deprecated or sunset operation, and per deprecated or sunset parameter of an operation.
   */
  items: LifecycleInsight[];
}

/**
 * An operation or a parameter of it that is going away, with the calls still seen.
 *
 * From schemas/api/insights.json#/$defs/lifecycleInsight.
 */
export interface LifecycleInsight {
  /**
   * The service.
   */
  service: {
    /**
     * The `svc_` id.
     */
    id: ServiceId;
    /**
     * The service slug.
     */
    slug: string;
  };
  /**
   * The operation (itself going away when `parameter` is null).
   */
  operation: {
    /**
     * The `op_` id.
     */
    id: OperationId;
    /**
     * The operation's stable identifier string.
     */
    operationId: string;
    /**
     * HTTP method in upper case.
     */
    method: string;
    /**
     * The path template.
     */
    path: string;
  };
  /**
   * The parameter going away, or null when the item is the operation.
   */
  parameter: {
    /**
     * The `par_` id.
     */
    id: ParameterId;
    /**
     * The parameter's name.
     */
    name: string;
    /**
     * Where it is sent.
     */
    in: string;
  } | null;
  /**
   * Whether the item is deprecated.
   */
  deprecated: boolean;
  /**
   * Its sunset date (`YYYY-MM-DD`), or null.
   */
  sunset: string | null;
  /**
   * Calls seen of the item (for a parameter: of the operation, sending it).
   */
  calls: number;
  /**
   * When the last of them was made, or null.
   */
  lastSeenAt: string | null;
  /**
   * The calls by client, most first; `client` null for calls whose report names none.
   */
  clients: {
    /**
     * Who made the calls, or null where the report does not say.
     */
    client: string | null;
    /**
     * How many.
     */
    calls: number;
    /**
     * When the last was made.
     */
    lastSeenAt: string;
  }[];
  /**
   * Of the calls whose response headers the report had (HAR), how many, and how many carried each header.
   */
  responses: {
    /**
     * Calls whose response headers were reported.
     */
    observed: number;
    /**
     * Of those, responses with RFC 9745's `Deprecation` header.
     */
    deprecationHeader: number;
    /**
     * Of those, responses with RFC 8594's `Sunset` header.
     */
    sunsetHeader: number;
  };
}

/**
 * The references of one version that name no record, per collection. References are not enforced on write, so clients may write in any order; this report finds what is still dangling.
 *
 * From schemas/api/integrity.json.
 */
export interface IntegrityReport {
  /**
   * By collection name (every collection of the catalog).
   */
  collections: {
    [k: string]: CollectionIntegrity;
  };
}

/**
 * The dangling references held by the records of one collection, sorted by record id.
 *
 * From schemas/api/integrity.json#/$defs/collectionIntegrity.
 */
export interface CollectionIntegrity {
  /**
   * At most 1,000 entries.
   */
  dangling: DanglingReference[];
  /**
   * Whether more dangling references exist than are listed.
   */
  truncated: boolean;
}

/**
 * A reference field, or a `$ref` inside a record, naming a record that does not exist in the version.
 *
 * From schemas/api/integrity.json#/$defs/danglingReference.
 */
export interface DanglingReference {
  /**
   * The record holding the reference.
   */
  id: string;
  /**
   * Its top-level field holding the reference.
   */
  field: string;
  /**
   * JSON pointer to the `$ref` inside the record (component references only).
   */
  pointer?: string;
  /**
   * The collection the reference should name a record of.
   */
  target: string;
}

/**
 * Pagination metadata of a list response.
 *
 * From schemas/api/pagination.json.
 */
export interface PaginationMetadata {
  /**
   * Id of the first item of the next page; null when no further item id is available.
   */
  nextCursor: string | null;
  /**
   * Whether a next page exists.
   */
  hasMore: boolean;
  /**
   * Page size used for this page.
   */
  limit: number;
}

/**
 * Operations matching a search, best first.
 *
 * From schemas/api/search.json.
 */
export interface SearchResults {
  /**
   * What ranked these hits: `hybrid`, the index's candidates fused with the operations nearest the query by the search model's vectors; `lexical`, the index alone (the model is off or missing, or operations written since are still being embedded: they are found by the index meanwhile).
   */
  ranking: "hybrid" | "lexical";
  /**
   * At most `limit` endpoints, by descending score (ties by operationId).
   */
  hits: EndpointHit[];
}

/**
 * An operation with what a caller needs to call it: a readable title, where (the ready URL template, servers), what to send (required parameters, body media types) and with which credentials (security).
 *
 * From schemas/api/search.json#/$defs/endpoint.
 */
export interface Endpoint {
  /**
   * A readable title: the operation's summary, else its description's first sentence as plain text (Markdown and HTML dropped), at most 120 characters. Absent when the operation has neither.
   */
  title?: string;
  /**
   * The operation record's identifying fields.
   */
  operation: {
    /**
     * The `op_` id of the operation record.
     */
    id: OperationId;
    /**
     * The operation's stable identifier string.
     */
    operationId: string;
    /**
     * HTTP method in lower case.
     */
    method: string;
    /**
     * Short summary of the operation.
     */
    summary?: string;
    /**
     * Whether the operation is deprecated.
     */
    deprecated: boolean;
    /**
     * The date (`YYYY-MM-DD`) after which the operation may be removed, when it has one.
     */
    sunset?: string;
    [k: string]: unknown;
  };
  /**
   * The path record the operation belongs to.
   */
  path: {
    /**
     * The `path_` id of the path record.
     */
    id: string;
    /**
     * The path template, for example `/pets/{petId}`.
     */
    path: string;
  };
  /**
   * Null only when the path names no stored service.
   */
  service: {
    /**
     * The `svc_` id of the service record.
     */
    id: string;
    /**
     * The service's slug.
     */
    slug: string;
    /**
     * The service's name.
     */
    name: string;
    /**
     * The team that owns the service, when known.
     */
    owner?: string;
    /**
     * The service's lifecycle stage (`experimental`, `production`, `deprecated`, `retired`), when known.
     */
    lifecycle?: string;
  } | null;
  /**
   * The ready URL template: the first server URL (as in `servers`) with each server variable replaced by its default, joined with the path; the path's own `{parameters}` are left for the caller to fill. The path alone when no server applies; relative when the server URL is.
   */
  url: string;
  /**
   * The parameters a call must send (path parameters, and the others marked required), the path's inherited ones first.
   */
  requiredParameters: RequiredParameter[];
  /**
   * The media types the request body may be sent as, in document order; empty when the operation takes no body.
   *
   * Items: A media type, for example `application/json`.
   */
  bodyMediaTypes: string[];
  /**
   * Server URLs: the operation's, else the path's, else the service's.
   *
   * Items: A server URL template, as recorded.
   */
  servers: string[];
  /**
   * The requirement that applies: the operation's own, else the service's. Each entry is an alternative; all schemes of one entry are needed together. An empty list means no credentials where `securityDeclared` is true (the description says `security: []`); where it is false the description declares no requirement at all, which does not say that none is needed.
   */
  security: SchemeUse[][];
  /**
   * Whether the operation or its service declares a security requirement (an empty one included). False: the description says nothing about authentication, so `security` is empty without meaning that no credential is needed.
   */
  securityDeclared: boolean;
  /**
   * How often and how lately the endpoint was called, from traffic reports (see /insights); null when never.
   */
  observed: Observed;
  [k: string]: unknown;
}

/**
 * An endpoint with its relevance.
 *
 * From schemas/api/search.json#/$defs/endpointHit.
 */
export type EndpointHit = Endpoint & {
  /**
   * Relevance to the query: the BM25 score of the operation's fields (per-field boosts; stemmed, prefix and one-typo matches) times how well the query names the operation (its words in the operationId, summary or method). Higher is better; comparable within one answer only.
   */
  score: number;
  [k: string]: unknown;
};

/**
 * One parameter a call must send.
 *
 * From schemas/api/search.json#/$defs/requiredParameter.
 */
export interface RequiredParameter {
  /**
   * The parameter's name.
   */
  name: string;
  /**
   * path, query, header or cookie.
   */
  in: string;
  /**
   * The parameter schema's own type (the first that is not null); absent when the schema gives none directly (a `$ref`, a `oneOf`): see get_endpoint or the service's OpenAPI document.
   */
  type?: string;
}

/**
 * One security scheme of a requirement, resolved, with the scopes asked for.
 *
 * From schemas/api/search.json#/$defs/schemeUse.
 */
export interface SchemeUse {
  /**
   * The security scheme record's fields a caller needs; `id` is null when the requirement names no stored scheme. For an apiKey, `in` and `parameterName` say where the key goes.
   */
  scheme: {
    /**
     * The `sec_sch_` id of the scheme record, or null.
     */
    id: string | null;
    /**
     * The scheme's identifier (its name under components.securitySchemes).
     */
    name: string;
    /**
     * apiKey, http, mutualTls, oauth2 or openIdConnect.
     */
    type?: string;
    /**
     * For `http`: basic, bearer, digest, ...
     */
    scheme?: string;
    /**
     * Hint about the bearer token format, for example JWT.
     */
    bearerFormat?: string;
    /**
     * For `apiKey`: header, query or cookie.
     */
    in?: string;
    /**
     * For `apiKey`: the name of the header, query parameter or cookie that carries the key.
     */
    parameterName?: string;
    /**
     * For `oauth2`: the OAuth 2.0 flows, each with its URLs and, of its `scopes`, only those this requirement asks for (with their descriptions); the security scheme record has them all.
     */
    flows?: {
      [k: string]: unknown;
    };
    /**
     * For `openIdConnect`: the discovery URL.
     */
    openIdConnectUrl?: string;
    [k: string]: unknown;
  };
  /**
   * The scopes the requirement asks for (OAuth 2.0, OpenID Connect), else empty.
   *
   * Items: One scope.
   */
  scopes: string[];
}

/**
 * A project's subscription to change events: CloudEvents 1.0 JSON POSTed to `url`, signed the Standard Webhooks way with the subscription's secret (docs/events.md).
 *
 * From schemas/api/subscription.json.
 */
export interface Subscription {
  /**
   * `sub_` and a ULID.
   */
  id: SubscriptionId;
  /**
   * The project whose changes it receives.
   */
  projectId: ProjectId;
  /**
   * Where each event is POSTed.
   */
  url: string;
  /**
   * The types of event it receives.
   */
  types: EventTypes;
  /**
   * Only events about these services (slugs or `svc_` ids); absent: every service, and the events about no service.
   */
  services?: Services;
  /**
   * A paused subscription's events are kept and delivered once it is resumed.
   */
  paused: boolean;
  /**
   * ISO 8601, UTC.
   */
  createdAt: string;
  /**
   * Standard Webhooks `whsec_…` secret the deliveries are signed with. Answered once, when the subscription is created; keep it.
   */
  secret?: string;
}

/**
 * `sub_` followed by 26 characters of `[0-9A-Za-z]`.
 *
 * From schemas/api/subscription.json#/$defs/subscriptionId.
 */
export type SubscriptionId = string;

/**
 * A kind of change (docs/events.md).
 *
 * From schemas/api/subscription.json#/$defs/eventType.
 */
export type EventType =
  | "catalog.service.imported"
  | "catalog.service.changed"
  | "catalog.service.lifecycle_changed"
  | "catalog.version.created"
  | "catalog.version.copied"
  | "catalog.version.deleted"
  | "catalog.records.changed"
  | "catalog.service.lint_changed"
  | "catalog.service.score_changed";

/**
 * At least one, each once.
 *
 * From schemas/api/subscription.json#/$defs/eventTypes.
 *
 * @minItems 1
 */
export type EventTypes = [EventType, ...EventType[]];

/**
 * Service slugs or `svc_` ids, at least one.
 *
 * From schemas/api/subscription.json#/$defs/services.
 *
 * @minItems 1
 * @maxItems 100
 */
export type Services = [string, ...string[]];

/**
 * What a subscription is made of; its secret is generated.
 *
 * From schemas/api/subscription.json#/$defs/subscriptionCreate.
 */
export interface NewSubscription {
  /**
   * An http or https URL, no credentials in it. By default it may not lead to loopback, private or link-local addresses (`WEBHOOK_ALLOW_PRIVATE`).
   */
  url: string;
  /**
   * The types of event to receive.
   */
  types: EventTypes;
  /**
   * Only events about these services; absent: every service.
   */
  services?: Services;
}

/**
 * A project's subscriptions in creation order, secrets left out.
 *
 * From schemas/api/subscription.json#/$defs/subscriptionList.
 */
export interface Subscriptions {
  /**
   * The subscriptions.
   */
  items: Subscription[];
}

/**
 * One attempt at delivering one event to the subscription.
 *
 * From schemas/api/subscription.json#/$defs/delivery.
 */
export interface DeliveryAttempt {
  /**
   * The attempt's id.
   */
  id: string;
  /**
   * The CloudEvent's `id`, also the delivery's `webhook-id` header.
   */
  eventId: string;
  /**
   * The event's type.
   */
  type: EventType;
  /**
   * The event's subject.
   */
  subject: string;
  /**
   * 1 for the first try.
   */
  attempt: number;
  /**
   * ISO 8601, UTC.
   */
  startedAt: string;
  /**
   * The receiver's HTTP status; absent when it gave none.
   */
  status?: number;
  /**
   * A 2xx answer; absent while the attempt runs.
   */
  ok?: boolean;
  /**
   * Why no answer came (refused, timed out, address not allowed).
   */
  error?: string;
  /**
   * Milliseconds from connecting to the answer's end.
   */
  durationMs?: number;
}

/**
 * A subscription's delivery attempts, newest event first.
 *
 * From schemas/api/subscription.json#/$defs/deliveryList.
 */
export interface Deliveries {
  /**
   * The attempts.
   */
  items: DeliveryAttempt[];
  /**
   * Where the next page starts.
   */
  pagination: PaginationMetadata;
}

/**
 * The event to send the subscription again.
 *
 * From schemas/api/subscription.json#/$defs/redelivery.
 */
export interface Redelivery {
  /**
   * An event the subscription was sent (or is due).
   */
  eventId: string;
}

/**
 * A catalog version of a project: a branch or an environment holding its own copy of every record. Managed under `/v2/catalog/projects/{projectRef}/versions`.
 *
 * From schemas/api/version.json.
 */
export interface CatalogVersion {
  /**
   * Identifier of the version, used by the `/v2/catalog/versions/{versionId}` routes.
   */
  id: CatalogVersionId;
  /**
   * The project the version belongs to.
   */
  projectId: ProjectId;
  /**
   * `branch` or `environment`.
   */
  type: VersionType;
  /**
   * Unique within the project and type; the `{versionSlug}` of the project routes.
   */
  slug: VersionSlug;
  /**
   * When the version was created (ISO 8601, UTC, milliseconds).
   */
  createdAt: string;
  /**
   * When the version itself last changed (its copy finished, for a copied version); record changes do not move it.
   */
  updatedAt: string;
  /**
   * Id of the version whose records this version started with, or null when it started empty.
   */
  copiedFrom: CatalogVersionId | null;
}

/**
 * Body of `POST /v2/catalog/projects/{projectRef}/versions`.
 *
 * From schemas/api/version.json#/$defs/versionCreate.
 */
export interface NewCatalogVersion {
  /**
   * `branch` or `environment`.
   */
  type: VersionType;
  /**
   * Unique within the project and type.
   */
  slug: VersionSlug;
  /**
   * A version of the same project whose records (every collection, ids kept) the new version starts with: its `ver_` id, `type/slug` (`branch/main`), `project/type/slug`, or `{"type", "slug"}`. The new version is not visible until the copy has finished.
   */
  copyFrom?:
    | VersionReference
    | {
        /**
         * `branch` or `environment`.
         */
        type: VersionType;
        /**
         * The version's slug.
         */
        slug: VersionSlug;
      };
}

/**
 * One page of a project's versions, ordered by id (creation order).
 *
 * From schemas/api/version.json#/$defs/versionList.
 */
export interface CatalogVersionList {
  /**
   * The versions of this page.
   */
  items: CatalogVersion[];
  /**
   * Where the next page starts.
   */
  pagination: PaginationMetadata;
}

/**
 * Record ids of one collection that differ between the two versions; each list holds at most 1,000 ids, in id order.
 *
 * From schemas/api/version.json#/$defs/collectionDiff.
 */
export interface CollectionDifference {
  /**
   * Ids of records in the version and not in `against`.
   *
   * Items: A record id.
   */
  added: string[];
  /**
   * Ids of records in `against` and not in the version.
   *
   * Items: A record id.
   */
  removed: string[];
  /**
   * Ids of records in both whose fields differ (any field but `versionId` and `updatedAt`).
   *
   * Items: A record id.
   */
  changed: string[];
  /**
   * True when at least one of the three lists was cut at 1,000 ids.
   */
  truncated: boolean;
}

/**
 * Answer of `GET /v2/catalog/versions/{versionId}/diff?against={versionId}`: per collection, what the version has that `against` has not.
 *
 * From schemas/api/version.json#/$defs/versionDiff.
 */
export interface CatalogVersionDifference {
  /**
   * The version compared.
   */
  versionId: CatalogVersionId;
  /**
   * The version it is compared against.
   */
  against: CatalogVersionId;
  /**
   * By collection name (`paths`, `requests`, ...), every served collection.
   */
  collections: {
    [k: string]: CollectionDifference;
  };
}

/**
 * Schema of `collections.json`: the record kinds the service serves as collections, and how.
 *
 * From schemas/collection-descriptors.schema.json.
 */
export interface CollectionDescriptors {
  /**
   * Reference to this schema, for editors.
   */
  $schema?: string;
  /**
   * The served collections.
   */
  collections: CollectionDescriptor[];
}

/**
 * One served collection.
 *
 * From schemas/collection-descriptors.schema.json#/$defs/collection.
 */
export interface CollectionDescriptor {
  /**
   * URL segment of the collection and name of its MongoDB collection.
   */
  name: string;
  /**
   * Display name of the collection, for documentation.
   */
  title: string;
  /**
   * Name of the record kind, for example `Path`.
   */
  record: string;
  /**
   * Absolute `$id` of the record schema.
   */
  schema: string;
  /**
   * The `error` string of the not found outcome, for example `Path not found`.
   */
  notFound: string;
  /**
   * Top-level fields of the record (references, natural-key parts and scalar fields such as a Service's lifecycle) the list operation may filter on by equality, values typed by the field's schema. Defaults to `[]`.
   */
  filters?: string[];
  /**
   * Top-level fields holding the id of another record, each mapped to the collection it names. Not enforced on write; `GET {prefix}/integrity` reports the dangling ones. Defaults to `{}`.
   */
  references?: {
    [k: string]: string;
  };
  /**
   * Top-level fields whose values together are unique within a version (a missing part counts as null). A write that would repeat another record's key is `409 Conflict`. Absent: no natural key.
   *
   * @minItems 1
   */
  naturalKey?: [string, ...string[]];
  /**
   * For a kind without a natural key: the fields by which an OpenAPI import matches the objects of a document to the stored records of this kind (a re-import replaces the record of the same key, keeping its id). A dotted field reaches into an object: `kvStorage.x-catalog.service` is the service whose import made the record. Not enforced on write. Absent: an import matches by `naturalKey`.
   *
   * @minItems 1
   */
  importKey?: [string, ...string[]];
  /**
   * For a kind no reference ties to a service: the (dotted) field holding the id of the service its records belong to, such as `kvStorage.x-catalog.service`, the service whose import made them. A record belongs to a service through this field or through a reference to a record that belongs to it; an import of the service replaces and deletes them, its export renders them. Absent: only references tie the kind to a service.
   */
  owner?: string;
  /**
   * Fields of which a record sets between `min` and `max` (for example a Parameter belongs to exactly one of a path or an operation). Absent: no scope rule.
   */
  scope?: {
    /**
     * The scope fields.
     *
     * @minItems 2
     */
    fields: [string, string, ...string[]];
    /**
     * How many of the fields must at least be set.
     */
    min: number;
    /**
     * How many of the fields may at most be set.
     */
    max: number;
  };
  /**
   * For a service-owned kind the OpenAPI import and export have no mapping of their own for: the vendor extension, a list of objects, whose items are its records (Redoc's `x-codeSamples`, for example). The list sits on the object of the kind the record's one reference names: a Service's document, a Path Item or an Operation Object. An item's members that are fields of the record are its fields, the others stay with the record; the export writes the list back in its order. Absent: the kind has no place in a document.
   */
  extension?: string;
  /**
   * Records of this collection are what a `$ref` of the OpenAPI form `#/components/<section>/<name>`, anywhere in any record, names by their `key` field (Resources: `schemas` by `name`; Headers: `headers` by `name`). `GET {prefix}/integrity` reports such `$ref`s that name no record. Absent: nothing refers to the collection this way.
   */
  component?: {
    /**
     * The section under `#/components/`, for example `schemas`.
     */
    section: string;
    /**
     * The top-level string field holding the component's name, for example `name`.
     */
    key: string;
  };
}

/**
 * A date-time string (ISO 8601, RFC 3339) or null.
 *
 * From schemas/defs/common.json#/$defs/timestamp.
 */
export type Timestamp = string | null;

/**
 * Text in markdown.
 *
 * From schemas/defs/common.json#/$defs/markdown.
 */
export type Markdown = string;

/**
 * Free-form custom metadata (any JSON values), including vendor extensions. Unknown top-level fields are rejected, so vendor data goes here.
 *
 * From schemas/defs/common.json#/$defs/kvStorage.
 */
export interface KeyValueStorage {
  [k: string]: unknown;
}

/**
 * A JSON Schema object describing a value. Stored and returned as sent (free form).
 *
 * From schemas/defs/common.json#/$defs/jsonSchema.
 */
export interface JSONSchema {
  [k: string]: unknown;
}

/**
 * A mark (formatting) applied to a rich-text node: required `type`, optional `attrs`.
 *
 * From schemas/defs/common.json#/$defs/richTextMark.
 */
export interface RichTextMark {
  /**
   * Kind of mark, for example bold or link.
   */
  type: string;
  /**
   * Attributes of the mark.
   */
  attrs?: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}

/**
 * A node of a rich-text tree: an object with optional `type`, `attrs`, `content` (child nodes), `marks` and `text`. The listed fields are type-checked; other keys are accepted and kept, since rich text is free-form editor JSON.
 *
 * From schemas/defs/common.json#/$defs/richTextNode.
 */
export interface RichTextNode {
  /**
   * Kind of node, for example paragraph or text.
   */
  type?: string;
  /**
   * Attributes of the node.
   */
  attrs?: {
    [k: string]: unknown;
  };
  /**
   * Child nodes, in order.
   */
  content?: RichTextNode[];
  /**
   * Marks applied to the node.
   */
  marks?: RichTextMark[];
  /**
   * Text of a text node.
   */
  text?: string;
  [k: string]: unknown;
}

/**
 * A rich-text value (`descriptionBlocks`): one node or an array of nodes.
 *
 * From schemas/defs/common.json#/$defs/richText.
 */
export type RichText = RichTextNode | RichTextNode[];

/**
 * A link to external documentation.
 *
 * From schemas/defs/common.json#/$defs/externalDocs.
 */
export interface ExternalDocumentation {
  /**
   * URL of the external documentation.
   */
  url: string;
  /**
   * Description of the external documentation (markdown).
   */
  description?: Markdown;
}

/**
 * An object mapping a security scheme id to the array of scope strings required for it. Keys are free strings (not checked against the `sec_sch_` format), since the contract also calls scheme names such as `projectApiKey` scheme ids.
 *
 * From schemas/defs/common.json#/$defs/securityRequirement.
 */
export interface SecurityRequirement {
  /**
   * Scopes required for this security scheme (may be empty).
   */
  [k: string]: string[];
}

/**
 * An example whose value lives at a URL: `externalValue` is required and `value` is not allowed.
 *
 * From schemas/defs/common.json#/$defs/externalExample.
 */
export interface ExternalExample {
  /**
   * Short summary of the example.
   */
  summary?: string;
  /**
   * Description of the example (markdown).
   */
  description?: Markdown;
  /**
   * URL (or reference) of the example value.
   */
  externalValue: string;
}

/**
 * An example carrying its value inline in `value` (any JSON value, optional); `externalValue` is not allowed.
 *
 * From schemas/defs/common.json#/$defs/embeddedExample.
 */
export interface EmbeddedExample {
  /**
   * Short summary of the example.
   */
  summary?: string;
  /**
   * Description of the example (markdown).
   */
  description?: Markdown;
  /**
   * The example value: any JSON value.
   */
  value?: unknown;
}

/**
 * An example map entry: either an external example (required `externalValue`) or an embedded example (optional `value`), never both. An entry without `externalValue` (for example only a `summary`) is an embedded example.
 *
 * From schemas/defs/common.json#/$defs/example.
 */
export type CommonExample = ExternalExample | EmbeddedExample;

/**
 * A map from example name to example.
 *
 * From schemas/defs/common.json#/$defs/examples.
 */
export interface Examples {
  [k: string]: CommonExample;
}

/**
 * A header defined in place. `required` and `deprecated` default to false when absent (the default is documented here, not declared with `default`, because this shape is used inside `oneOf`, where Ajv does not apply defaults).
 *
 * From schemas/defs/common.json#/$defs/inlineHeader.
 */
export interface InlineHeader {
  /**
   * Description of the header (markdown).
   */
  description?: Markdown;
  /**
   * Whether the header is expected. Absent means false.
   */
  required?: boolean;
  /**
   * Whether the header is deprecated. Absent means false.
   */
  deprecated?: boolean;
  /**
   * Shape of the header value.
   */
  schema?: JSONSchema;
  /**
   * Examples of the header value, by name.
   */
  examples?: Examples;
}

/**
 * A reference to a reusable header: an object with the required string `$ref` and nothing else.
 *
 * From schemas/defs/common.json#/$defs/headerReference.
 */
export interface HeaderReference {
  /**
   * Reference pointing to a reusable header.
   */
  $ref: string;
}

/**
 * Either an inline header or a reference to a reusable header (an object with `$ref`).
 *
 * From schemas/defs/common.json#/$defs/headerOrReference.
 */
export type HeaderOrReference = HeaderReference | InlineHeader;

/**
 * A map from header name to an inline header or a header reference.
 *
 * From schemas/defs/common.json#/$defs/headers.
 */
export interface Headers {
  [k: string]: HeaderOrReference;
}

/**
 * A variable substituted into a server URL template placeholder `{name}`.
 *
 * From schemas/defs/common.json#/$defs/serverVariable.
 */
export interface ServerVariable {
  /**
   * Value used when no other value is supplied.
   */
  default: string;
  /**
   * Allowed values of the variable; at least 1 item. Required.
   *
   * @minItems 1
   */
  enum: [string, ...string[]];
  /**
   * Description of the variable (markdown).
   */
  description?: Markdown;
}

/**
 * Identifier of a catalog version: the prefix `ver_` followed by exactly 26 characters of `[0-9A-Za-z]` (30 characters in total). Generated ids are ULIDs, so they sort by creation time.
 *
 * From schemas/defs/ids.json#/$defs/versionId.
 */
export type CatalogVersionId = string;

/**
 * Identifier of a service: the prefix `svc_` followed by exactly 26 characters of `[0-9A-Za-z]` (30 characters in total). Generated ids are ULIDs, so they sort by creation time.
 *
 * From schemas/defs/ids.json#/$defs/serviceId.
 */
export type ServiceId = string;

/**
 * Identifier of a resource (reusable object schema): the prefix `rsc_` followed by exactly 26 characters of `[0-9A-Za-z]` (30 characters in total). Generated ids are ULIDs, so they sort by creation time.
 *
 * From schemas/defs/ids.json#/$defs/resourceId.
 */
export type ResourceId = string;

/**
 * Identifier of a path: the prefix `path_` followed by exactly 26 characters of `[0-9A-Za-z]` (31 characters in total). Generated ids are ULIDs, so they sort by creation time.
 *
 * From schemas/defs/ids.json#/$defs/pathId.
 */
export type PathId = string;

/**
 * Identifier of an operation: the prefix `op_` followed by exactly 26 characters of `[0-9A-Za-z]` (29 characters in total). Generated ids are ULIDs, so they sort by creation time.
 *
 * From schemas/defs/ids.json#/$defs/operationId.
 */
export type OperationId = string;

/**
 * Identifier of a parameter: the prefix `par_` followed by exactly 26 characters of `[0-9A-Za-z]` (30 characters in total). Generated ids are ULIDs, so they sort by creation time.
 *
 * From schemas/defs/ids.json#/$defs/parameterId.
 */
export type ParameterId = string;

/**
 * Identifier of a request (request-body definition): the prefix `req_` followed by exactly 26 characters of `[0-9A-Za-z]` (30 characters in total). Generated ids are ULIDs, so they sort by creation time.
 *
 * From schemas/defs/ids.json#/$defs/requestId.
 */
export type RequestId = string;

/**
 * Identifier of a response: the prefix `res_` followed by exactly 26 characters of `[0-9A-Za-z]` (30 characters in total). Generated ids are ULIDs, so they sort by creation time.
 *
 * From schemas/defs/ids.json#/$defs/responseId.
 */
export type ResponseId = string;

/**
 * Identifier of a server: the prefix `srv_` followed by exactly 26 characters of `[0-9A-Za-z]` (30 characters in total). Generated ids are ULIDs, so they sort by creation time.
 *
 * From schemas/defs/ids.json#/$defs/serverId.
 */
export type ServerId = string;

/**
 * Identifier of a security scheme: the prefix `sec_sch_` followed by exactly 26 characters of `[0-9A-Za-z]` (34 characters in total). Generated ids are ULIDs, so they sort by creation time.
 *
 * From schemas/defs/ids.json#/$defs/securitySchemeId.
 */
export type SecuritySchemeId = string;

/**
 * Identifier of a reusable header: the prefix `head_` followed by exactly 26 characters of `[0-9A-Za-z]` (31 characters in total). Generated ids are ULIDs, so they sort by creation time.
 *
 * From schemas/defs/ids.json#/$defs/headerId.
 */
export type HeaderId = string;

/**
 * Identifier of a reusable example: the prefix `expl_` followed by exactly 26 characters of `[0-9A-Za-z]` (31 characters in total). Generated ids are ULIDs, so they sort by creation time.
 *
 * From schemas/defs/ids.json#/$defs/exampleId.
 */
export type ExampleId = string;

/**
 * Identifier of a project: the prefix `proj_` followed by exactly 26 characters of `[0-9A-Za-z]` (31 characters in total). Generated ids are ULIDs, so they sort by creation time.
 *
 * From schemas/defs/ids.json#/$defs/projectId.
 */
export type ProjectId = string;

/**
 * Human-readable project identifier: lower-case letters, digits and `-`, 1 to 100 characters.
 *
 * From schemas/defs/ids.json#/$defs/projectSlug.
 */
export type ProjectSlug = string;

/**
 * URL-friendly identifier of a service, unique within its version: lower-case letters, digits and `-`.
 *
 * From schemas/defs/ids.json#/$defs/serviceSlug.
 */
export type ServiceSlug = string;

/**
 * A service of the version, by its slug or its `svc_` id (the two forms cannot be confused: a slug has no `_`).
 *
 * From schemas/defs/ids.json#/$defs/serviceRef.
 */
export type ServiceReference = ServiceSlug | ServiceId;

/**
 * A catalog version, by its `ver_` id, by `type/slug` within the project at hand (`branch/main`), or by `project/type/slug` (project id or slug).
 *
 * From schemas/defs/ids.json#/$defs/versionRef.
 */
export type VersionReference = CatalogVersionId | string;

/**
 * Identifier of a project API key (not the secret): the prefix `key_` followed by exactly 26 characters of `[0-9A-Za-z]` (30 characters in total). Used by the admin CLI to list and revoke keys.
 *
 * From schemas/defs/ids.json#/$defs/apiKeyId.
 */
export type APIKeyId = string;

/**
 * Either a project id (`proj_` prefix, 31 characters) or a project slug (any string of min length 1). A value of the `proj_` id form is treated as a project id; anything else as a slug.
 *
 * From schemas/defs/ids.json#/$defs/projectRef.
 */
export type ProjectReference = ProjectId | string;

/**
 * Type of a catalog version: `branch` or `environment`.
 *
 * From schemas/defs/ids.json#/$defs/versionType.
 */
export type VersionType = "branch" | "environment";

/**
 * Slug of a catalog version within its project and type, for example the default branch name.
 *
 * From schemas/defs/ids.json#/$defs/versionSlug.
 */
export type VersionSlug = string;

/**
 * Assistant conversation payload: a list of messages.
 *
 * From schemas/records/assistant-conversation.json.
 */
export interface AssistantConversation {
  /**
   * The messages of the conversation, in order.
   */
  messages: Message[];
}

/**
 * A message of the conversation.
 *
 * From schemas/records/assistant-conversation.json#/$defs/message.
 */
export interface Message {
  /**
   * Identifier of the message.
   */
  id?: string;
  /**
   * Author of the message.
   */
  role: "system" | "user" | "assistant";
  /**
   * Free-form message metadata.
   */
  metadata?: {
    [k: string]: unknown;
  };
  /**
   * The parts of the message, in order.
   */
  parts: MessagePart[];
}

/**
 * A part of a message: a text or reasoning part, a file part, or any other object with a `type` string of min length 1 (other than text, reasoning and file).
 *
 * From schemas/records/assistant-conversation.json#/$defs/part.
 */
export type MessagePart = TextOrReasoningPart | FilePart | OtherPart;

/**
 * A text or reasoning part: `text` required.
 *
 * From schemas/records/assistant-conversation.json#/$defs/textPart.
 */
export interface TextOrReasoningPart {
  /**
   * `text` or `reasoning`.
   */
  type: "text" | "reasoning";
  /**
   * The text.
   */
  text: string;
  /**
   * Whether the text is still streaming or done.
   */
  state?: "streaming" | "done";
  /**
   * Provider-specific metadata.
   */
  providerMetadata?: {
    [k: string]: unknown;
  };
}

/**
 * A file part: `mediaType` and `url` required.
 *
 * From schemas/records/assistant-conversation.json#/$defs/filePart.
 */
export interface FilePart {
  /**
   * `file`.
   */
  type: "file";
  /**
   * MIME type of the file.
   */
  mediaType: string;
  /**
   * Where the file is (URL or data URL).
   */
  url: string;
  /**
   * Name of the file.
   */
  filename?: string;
  /**
   * Provider-specific metadata.
   */
  providerMetadata?: {
    [k: string]: unknown;
  };
}

/**
 * Any other part: an object with a `type` string of min length 1 other than text, reasoning and file; other fields are free.
 *
 * From schemas/records/assistant-conversation.json#/$defs/otherPart.
 */
export interface OtherPart {
  /**
   * Kind of part.
   */
  type: string;
  [k: string]: unknown;
}

/**
 * A reusable Example. `value` and `externalValue` are mutually exclusive, as for example map entries.
 *
 * From schemas/records/example.json.
 */
export interface Example {
  /**
   * Identifier of the example (`expl_` id).
   */
  id?: ExampleId;
  /**
   * Name of the example (not unique).
   */
  name?: string;
  /**
   * The example value: any JSON value. Not allowed together with `externalValue`.
   */
  value?: unknown;
  /**
   * URL of the example value. Not allowed together with `value`.
   */
  externalValue?: string;
  /**
   * Short summary of the example.
   */
  summary?: string;
  /**
   * Description of the example (markdown).
   */
  description?: Markdown;
  /**
   * Description as rich text: one node or an array of nodes.
   */
  descriptionBlocks?: RichText;
  /**
   * Custom metadata (object, any values), including vendor extensions. Defaults to `{}`.
   */
  kvStorage?: KeyValueStorage;
  /**
   * The catalog version the record belongs to (`ver_` id). May be omitted in a body: it is taken from the route.
   */
  versionId: CatalogVersionId;
  /**
   * When the record was last written (ISO 8601, UTC). Assigned by the service; a submitted value is ignored.
   */
  updatedAt?: Timestamp;
}

/**
 * A reusable Header definition.
 *
 * From schemas/records/header.json.
 */
export interface Header {
  /**
   * Identifier of the header (`head_` id).
   */
  id?: HeaderId;
  /**
   * Header name; case-insensitive on the wire.
   */
  name: string;
  /**
   * Description of the header (markdown).
   */
  description?: Markdown;
  /**
   * Whether the header is expected.
   */
  required?: boolean;
  /**
   * Whether the header is deprecated.
   */
  deprecated?: boolean;
  /**
   * Serialization style of the value.
   */
  style?: "simple";
  /**
   * Whether array and object values are exploded.
   */
  explode?: boolean;
  /**
   * Shape of the header value.
   */
  schema?: JSONSchema;
  /**
   * Examples, by name. Defaults to `{}`.
   */
  examples?: Examples;
  /**
   * Custom metadata (object, any values), including vendor extensions. Defaults to `{}`.
   */
  kvStorage?: KeyValueStorage;
  /**
   * Map of content type to media description: `schema` required, `examples` optional.
   */
  content?: {
    /**
     * Representation of the header value for one content type.
     */
    [k: string]: {
      /**
       * Shape of the header value in this content type.
       */
      schema: JSONSchema;
      /**
       * Examples, by name.
       */
      examples?: Examples;
    };
  };
  /**
   * The catalog version the record belongs to (`ver_` id). May be omitted in a body: it is taken from the route.
   */
  versionId: CatalogVersionId;
  /**
   * When the record was last written (ISO 8601, UTC). Assigned by the service; a submitted value is ignored.
   */
  updatedAt?: Timestamp;
}

/**
 * An Operation is one HTTP method on a path.
 *
 * From schemas/records/operation.json.
 */
export interface Operation {
  /**
   * Identifier of the operation record (`op_` id). Not to be confused with `operationId`, the stable identifier string.
   */
  id?: OperationId;
  /**
   * HTTP method in lower case: one of get, put, post, delete, options, head, patch, trace.
   */
  method: "get" | "put" | "post" | "delete" | "options" | "head" | "patch" | "trace";
  /**
   * The path this operation belongs to (`path_` id).
   */
  pathId: PathId;
  /**
   * Short summary of the operation.
   */
  summary?: string;
  /**
   * Description of the operation (markdown).
   */
  description?: Markdown;
  /**
   * Description as rich text: one node or an array of nodes.
   */
  descriptionBlocks?: RichText;
  /**
   * Whether the operation is deprecated. Defaults to false.
   */
  deprecated?: boolean;
  /**
   * The date (`YYYY-MM-DD`) after which the operation may be removed (RFC 8594's Sunset, as a date). From the description's `x-sunset`, rendered back there on export. Removing a deprecated operation after its sunset is a planned change, before it a breaking one.
   */
  sunset?: string;
  /**
   * Stable identifier of the operation (a free string, not an `op_` id).
   */
  operationId: string;
  /**
   * Tags. Defaults to empty.
   */
  tags?: string[];
  /**
   * Custom metadata (object, any values), including vendor extensions. Defaults to `{}`.
   */
  kvStorage?: KeyValueStorage;
  /**
   * Link to external documentation: `url` required, `description` optional.
   */
  externalDocs?: ExternalDocumentation;
  /**
   * Security requirements: an array of objects, each mapping a security scheme id to an array of scope strings.
   */
  security?: SecurityRequirement[];
  /**
   * The catalog version the record belongs to (`ver_` id). May be omitted in a body: it is taken from the route.
   */
  versionId: CatalogVersionId;
  /**
   * When the record was last written (ISO 8601, UTC). Assigned by the service; a submitted value is ignored.
   */
  updatedAt?: Timestamp;
}

/**
 * A Parameter of a path (all its operations) or of one operation: exactly one of `pathId` and `operationId` is set. A path parameter (`in: path`) is always required.
 *
 * From schemas/records/parameter.json.
 */
export interface Parameter {
  /**
   * Identifier of the parameter (`par_` id).
   */
  id?: ParameterId;
  /**
   * Name of the parameter; case-sensitive for headers.
   */
  name: string;
  /**
   * Description of the parameter (markdown).
   */
  description?: Markdown;
  /**
   * Set when the parameter applies to all operations of a path (`path_` id).
   */
  pathId?: PathId;
  /**
   * Set when the parameter is specific to one operation (`op_` id).
   */
  operationId?: OperationId;
  /**
   * Whether the parameter is deprecated. Defaults to false.
   */
  deprecated?: boolean;
  /**
   * The date (`YYYY-MM-DD`) after which the parameter may be removed (RFC 8594's Sunset, as a date). From the description's `x-sunset`, rendered back there on export. Removing a deprecated parameter after its sunset is a planned change, before it a breaking one.
   */
  sunset?: string;
  /**
   * Whether the parameter is required. Defaults to false.
   */
  required?: boolean;
  /**
   * Where the parameter is sent.
   */
  in: "query" | "header" | "path" | "cookie";
  /**
   * Shape of the parameter value.
   */
  schema: JSONSchema;
  /**
   * @deprecated
   * Whether an empty value is allowed (deprecated). Defaults to false.
   */
  allowEmptyValue?: boolean;
  /**
   * Examples, by name. Defaults to `{}`.
   */
  examples?: Examples;
  /**
   * Custom metadata (object, any values), including vendor extensions. Defaults to `{}`.
   */
  kvStorage?: KeyValueStorage;
  /**
   * The catalog version the record belongs to (`ver_` id). May be omitted in a body: it is taken from the route.
   */
  versionId: CatalogVersionId;
  /**
   * When the record was last written (ISO 8601, UTC). Assigned by the service; a submitted value is ignored.
   */
  updatedAt?: Timestamp;
}

/**
 * A Path is an API path entry: a templated URL segment with metadata shared by its operations. Managed through the Paths collection.
 *
 * From schemas/records/path.json.
 */
export interface Path {
  /**
   * Identifier of the path (`path_` id). Optional on create: generated by the service when omitted.
   */
  id?: PathId;
  /**
   * The owning service (`svc_` id).
   */
  serviceId: ServiceId;
  /**
   * Path template, for example `/users/{userId}`; must start with `/`.
   */
  path: string;
  /**
   * Short summary across its operations.
   */
  summary?: string;
  /**
   * Description of the path (markdown).
   */
  description?: Markdown;
  /**
   * Custom metadata (object, any values), including vendor extensions. Defaults to `{}`.
   */
  kvStorage?: KeyValueStorage;
  /**
   * The catalog version the record belongs to (`ver_` id). May be omitted in a body: it is taken from the route.
   */
  versionId: CatalogVersionId;
  /**
   * When the record was last written (ISO 8601, UTC). Assigned by the service; a submitted value is ignored.
   */
  updatedAt?: Timestamp;
}

/**
 * A Request is the request-body definition of an operation. Managed through the Requests collection.
 *
 * From schemas/records/request.json.
 */
export interface Request {
  /**
   * Identifier of the request (`req_` id). Optional on create: generated by the service when omitted.
   */
  id?: RequestId;
  /**
   * The operation whose request body this is (`op_` id).
   */
  operationId: OperationId;
  /**
   * Description of the request body (markdown).
   */
  description?: Markdown;
  /**
   * Description as rich text: one node or an array of nodes.
   */
  descriptionBlocks?: RichText;
  /**
   * MIME type of the body; null means the request has no body.
   */
  contentMediaType?: string | null;
  /**
   * Map of header name to inline header or header reference. Documents expectations only: presence does not make a header required and does not change server behavior. Defaults to `{}`.
   */
  headers?: Headers;
  /**
   * Shape of the payload.
   */
  schema?: JSONSchema;
  /**
   * Custom metadata (object, any values), including vendor extensions and the encoding details of the body. Defaults to `{}`.
   */
  kvStorage?: KeyValueStorage;
  /**
   * Examples of the payload, by name. Defaults to `{}`.
   */
  examples?: Examples;
  /**
   * The catalog version the record belongs to (`ver_` id). May be omitted in a body: it is taken from the route.
   */
  versionId: CatalogVersionId;
  /**
   * When the record was last written (ISO 8601, UTC). Assigned by the service; a submitted value is ignored.
   */
  updatedAt?: Timestamp;
}

/**
 * A Resource is a reusable object schema.
 *
 * From schemas/records/resource.json.
 */
export interface Resource {
  /**
   * Identifier of the resource (`rsc_` id).
   */
  id?: ResourceId;
  /**
   * Name of the resource. Defaults to empty.
   */
  name?: string;
  /**
   * Description of the resource (markdown).
   */
  description?: Markdown;
  /**
   * The catalog version the record belongs to (`ver_` id). May be omitted in a body: it is taken from the route.
   */
  versionId: CatalogVersionId;
  /**
   * The reusable object schema.
   */
  schema: JSONSchema;
  /**
   * Custom metadata (object, any values), including vendor extensions. Defaults to `{}`.
   */
  kvStorage?: KeyValueStorage;
  /**
   * Link to external documentation: `url` required, `description` optional.
   */
  externalDocs?: ExternalDocumentation;
  /**
   * When the record was created (date-time or null).
   */
  createdAt?: Timestamp;
  /**
   * When the record was last written (ISO 8601, UTC). Assigned by the service; a submitted value is ignored.
   */
  updatedAt?: Timestamp;
}

/**
 * A Response of an operation, for one status code or the default response.
 *
 * From schemas/records/response.json.
 */
export interface Response {
  /**
   * Identifier of the response (`res_` id).
   */
  id?: ResponseId;
  /**
   * The operation this response belongs to (`op_` id).
   */
  operationId: OperationId;
  /**
   * HTTP status code, an integer from 100 to 599; null is the default response (any status not described otherwise).
   */
  statusCode?: number | null;
  /**
   * Description of the response (markdown).
   */
  description?: Markdown;
  /**
   * Description as rich text: one node or an array of nodes.
   */
  descriptionBlocks?: RichText;
  /**
   * MIME type of the body; null means the response has no body.
   */
  contentMediaType?: string | null;
  /**
   * Shape of the response body.
   */
  schema?: JSONSchema;
  /**
   * Examples, by name. Defaults to `{}`.
   */
  examples?: Examples;
  /**
   * Custom metadata (object, any values), including vendor extensions. Defaults to `{}`.
   */
  kvStorage?: KeyValueStorage;
  /**
   * Map of header name to inline header or header reference. Defaults to `{}`.
   */
  headers?: Headers;
  /**
   * The catalog version the record belongs to (`ver_` id). May be omitted in a body: it is taken from the route.
   */
  versionId: CatalogVersionId;
  /**
   * When the record was last written (ISO 8601, UTC). Assigned by the service; a submitted value is ignored.
   */
  updatedAt?: Timestamp;
}

/**
 * A SecurityScheme: how a client authenticates.
 *
 * From schemas/records/security-scheme.json.
 */
export interface SecurityScheme {
  /**
   * Identifier of the security scheme (`sec_sch_` id).
   */
  id?: SecuritySchemeId;
  /**
   * The service that owns the scheme (`svc_` id): its operations' security requirements name it, and two services may each have a scheme of the same name. Set by import. Absent: the scheme is version-wide, named by the requirements of every service that has no scheme of that name of its own.
   */
  serviceId?: ServiceId;
  /**
   * Type of the scheme.
   */
  type: "apiKey" | "http" | "mutualTls" | "oauth2" | "openIdConnect";
  /**
   * Where the API key is sent (required for `apiKey`).
   */
  in?: "query" | "header" | "cookie";
  /**
   * Scheme identifier (the key under `components.securitySchemes`), unique within its service (or among the version-wide schemes).
   */
  name: string;
  /**
   * Description of the security scheme (markdown).
   */
  description?: Markdown;
  /**
   * Description as rich text: one node or an array of nodes.
   */
  descriptionBlocks?: RichText;
  /**
   * HTTP authentication scheme (required for `http`), for example basic, bearer, digest.
   */
  scheme?: string;
  /**
   * Hint about the bearer token format, for example JWT.
   */
  bearerFormat?: string;
  /**
   * OAuth 2.0 flow configuration (required for `oauth2`).
   */
  flows?: {
    [k: string]: unknown;
  };
  /**
   * OpenID Connect discovery URL (required for `openIdConnect`).
   */
  openIdConnectUrl?: string;
  /**
   * Custom metadata (object, any values), including vendor extensions and an apiKey scheme's parameter name. Defaults to `{}`. An addition to the contract (decisions.md, API descriptions).
   */
  kvStorage?: KeyValueStorage;
  /**
   * The catalog version the record belongs to (`ver_` id). May be omitted in a body: it is taken from the route.
   */
  versionId: CatalogVersionId;
  /**
   * When the record was last written (ISO 8601, UTC). Assigned by the service; a submitted value is ignored.
   */
  updatedAt?: Timestamp;
}

/**
 * A Server: a base URL template. At most one scope field (`serviceId`, `pathId`, `operationId`) may be set; they cannot be combined (declared in collections.json, `scope`).
 *
 * From schemas/records/server.json.
 */
export interface Server {
  /**
   * Identifier of the server (`srv_` id).
   */
  id?: ServerId;
  /**
   * URL template that may contain `{variable}` placeholders.
   */
  url: string;
  /**
   * Description of the server (markdown).
   */
  description?: Markdown;
  /**
   * Map of variable name to server variable. Defaults to `{}`.
   */
  variables?: {
    [k: string]: ServerVariable;
  };
  /**
   * Scope: the service this server applies to (`svc_` id). Cannot be combined with `pathId` or `operationId`.
   */
  serviceId?: ServiceId;
  /**
   * Scope: the path this server applies to (`path_` id). Cannot be combined with `serviceId` or `operationId`.
   */
  pathId?: PathId;
  /**
   * Scope: the operation this server applies to (`op_` id). Cannot be combined with `serviceId` or `pathId`.
   */
  operationId?: OperationId;
  /**
   * Custom metadata (object, any values), including vendor extensions. Defaults to `{}`.
   */
  kvStorage?: KeyValueStorage;
  /**
   * The catalog version the record belongs to (`ver_` id). May be omitted in a body: it is taken from the route.
   */
  versionId: CatalogVersionId;
  /**
   * When the record was last written (ISO 8601, UTC). Assigned by the service; a submitted value is ignored.
   */
  updatedAt?: Timestamp;
}

/**
 * A service of the catalog: the unit that owns paths and operations.
 *
 * From schemas/records/service.json.
 */
export interface Service {
  /**
   * Identifier of the service (`svc_` id).
   */
  id?: ServiceId;
  /**
   * Display name. Defaults to empty.
   */
  name?: string;
  /**
   * URL-friendly identifier: lower-case letters, digits and `-`.
   */
  slug: ServiceSlug;
  /**
   * Plain-text summary. Defaults to empty.
   */
  summary?: string;
  /**
   * Description of the service (markdown). Defaults to empty.
   */
  description?: Markdown;
  /**
   * Description as rich text: one node or an array of nodes.
   */
  descriptionBlocks?: RichText;
  /**
   * Tags. Defaults to empty.
   */
  tags?: string[];
  /**
   * Slugs the service had before. Defaults to empty.
   */
  previousSlugs?: string[];
  /**
   * Security requirements applying to every endpoint of the service: an array of objects, each mapping a security scheme id to an array of scope strings.
   */
  security?: SecurityRequirement[];
  /**
   * The team that owns the service (a team name, as Backstage's `owner`). From the description's `info.x-owner`; kept on re-import when the description gives none.
   */
  owner?: string;
  /**
   * How to reach the owner: `name`, `email`, `url` (OpenAPI's Contact Object). From the description's `info.contact`; kept on re-import when the description gives none.
   */
  contact?: {
    /**
     * Name of the contact person or team.
     */
    name?: string;
    /**
     * Email address of the contact.
     */
    email?: string;
    /**
     * URL of the contact information.
     */
    url?: string;
  };
  /**
   * Where the service is in its life: `experimental`, `production`, `deprecated` or `retired`. From the description's `info.x-lifecycle`; kept on re-import when the description gives none. Absent means not said.
   */
  lifecycle?: "experimental" | "production" | "deprecated" | "retired";
  /**
   * Where to read more: `docs`, `repository` and `chat` URLs. From the description's `info.x-links`; kept on re-import when the description gives none.
   */
  links?: {
    /**
     * URL of the service's documentation.
     */
    docs?: string;
    /**
     * URL of the service's source repository.
     */
    repository?: string;
    /**
     * URL of the owners' chat channel.
     */
    chat?: string;
  };
  /**
   * The catalog version the record belongs to (`ver_` id). May be omitted in a body: it is taken from the route.
   */
  versionId: CatalogVersionId;
  /**
   * The owning organization.
   */
  organizationId: string;
  /**
   * When the record was created (date-time or null).
   */
  createdAt?: Timestamp;
  /**
   * When the record was last written (ISO 8601, UTC). Assigned by the service; a submitted value is ignored.
   */
  updatedAt?: Timestamp;
  /**
   * Custom metadata (object, any values), including vendor extensions. Defaults to `{}`.
   */
  kvStorage?: KeyValueStorage;
  /**
   * When the last report was received (date-time or null).
   */
  lastReportAt?: Timestamp;
  /**
   * When the service was last mentioned (date-time or null).
   */
  lastMentionAt?: Timestamp;
  /**
   * When the service last connected (date-time or null).
   */
  lastConnectionAt?: Timestamp;
  /**
   * Whether the service keeps a direct connection from which reports are expected. Defaults to false.
   */
  hasConnection?: boolean;
}

/**
 * An HTTP Archive (HAR 1.2), as browsers and proxies export it. Only what the catalog reads is checked; every other field is allowed and ignored (bodies, headers, cookies and query values are never read or stored).
 *
 * From schemas/reports/har.json.
 */
export interface HARReport {
  /**
   * The archive.
   */
  log: {
    /**
     * HAR format version, for example 1.2.
     */
    version?: string;
    /**
     * One entry per request the client made.
     */
    entries: Entry[];
    [k: string]: unknown;
  };
  [k: string]: unknown;
}

/**
 * One request and its response.
 *
 * From schemas/reports/har.json#/$defs/entry.
 */
export interface Entry {
  /**
   * When the request started (ISO 8601).
   */
  startedDateTime: string;
  /**
   * The request: its method and absolute URL are read.
   */
  request: {
    /**
     * HTTP method.
     */
    method: string;
    /**
     * Absolute URL of the request; its query is ignored.
     */
    url: string;
    [k: string]: unknown;
  };
  /**
   * The response: its status is read (0 when the request got none).
   */
  response: {
    /**
     * HTTP status code; 0 for a request without a response.
     */
    status: number;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}

/**
 * One line of an NDJSON report (`application/x-ndjson`): one observed call, as a gateway's access log writes it, with `url` or `path`. Other fields are allowed and ignored.
 *
 * From schemas/reports/ndjson-call.json.
 */
export interface AccessLogLine {
  /**
   * HTTP method.
   */
  method: string;
  /**
   * Absolute URL, or a path with an optional query (ignored).
   */
  url?: string;
  /**
   * Host (and port) the call was addressed to, with `path`.
   */
  host?: string;
  /**
   * Path of the call, with `host`; a query is ignored.
   */
  path?: string;
  /**
   * HTTP status code of the response.
   */
  status?: number;
  /**
   * Who made the call (an application or consumer name, as the gateway knows it): the lifecycle insights name the clients still calling what is deprecated.
   */
  client?: string;
  /**
   * When the call was made: ISO 8601, or milliseconds since the epoch.
   */
  time?: string | number;
  [k: string]: unknown;
}

/**
 * An OTLP/HTTP JSON trace export (`ExportTraceServiceRequest`). Server spans with HTTP attributes are calls of the service that served them; client spans only mention the service they called. Other fields are allowed and ignored.
 *
 * From schemas/reports/otlp-traces.json.
 */
export interface OTLPTracesReport {
  /**
   * Spans grouped by the resource (process) that recorded them.
   */
  resourceSpans: ResourceSpans[];
  [k: string]: unknown;
}

/**
 * The spans of one resource.
 *
 * From schemas/reports/otlp-traces.json#/$defs/resourceSpans.
 */
export interface ResourceSpans {
  /**
   * The resource; its `service.name` attribute names the caller of client spans.
   */
  resource?: {
    /**
     * Resource attributes.
     */
    attributes?: Attributes;
    [k: string]: unknown;
  };
  /**
   * Spans grouped by instrumentation scope.
   *
   * Items: The spans of one instrumentation scope.
   */
  scopeSpans?: {
    /**
     * The spans.
     */
    spans?: Span[];
    [k: string]: unknown;
  }[];
  [k: string]: unknown;
}

/**
 * One span; its kind, start time and HTTP attributes are read.
 *
 * From schemas/reports/otlp-traces.json#/$defs/span.
 */
export interface Span {
  /**
   * Span kind: 2 (or SPAN_KIND_SERVER) for a served call, 3 (SPAN_KIND_CLIENT) for a call made.
   */
  kind?: number | string;
  /**
   * Nanoseconds since the epoch, as a decimal string or a number.
   */
  startTimeUnixNano?: string | number;
  /**
   * Span attributes: http.request.method, url.path, http.route, server.address, http.response.status_code (or the older http.method, http.target, http.status_code).
   */
  attributes?: Attributes;
  [k: string]: unknown;
}

/**
 * Key-value pairs; a value is one of stringValue, intValue (a number or decimal string), boolValue, doubleValue, arrayValue, kvlistValue, bytesValue.
 *
 * From schemas/reports/otlp-traces.json#/$defs/attributes.
 *
 * Items: One key-value pair.
 */
export type Attributes = {
  /**
   * Attribute name.
   */
  key: string;
  /**
   * Attribute value (AnyValue).
   */
  value?: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}[];

/** Record types by record kind (the schema title that collections.json names in `record`). */
export interface RecordTypes {
  "Assistant conversation": AssistantConversation;
  "Example": Example;
  "Header": Header;
  "Operation": Operation;
  "Parameter": Parameter;
  "Path": Path;
  "Request": Request;
  "Resource": Resource;
  "Response": Response;
  "SecurityScheme": SecurityScheme;
  "Server": Server;
  "Service": Service;
}
