// Three of an operation's subscores, each 0–100 from its records alone, with the fixes that
// would win back what it lost: documentation (what a reader is told), security (what a caller
// must present, and no secret where it leaks), agent readiness (how hard a call is to get right,
// in the spirit of Redocly's `score`). Every weight is here and in docs/scores.md.
import { isObject } from '../json/values.ts';
import { markOf } from '../store/mark.ts';
import type { CatalogRecord } from '../store/records.ts';
import { hasExample, shapeOf, wordy, type OperationParts } from './operation-records.ts';

export interface Subscore { score: number; fixes: string[] }

/** Points for each thing documented; they add up to 100. */
export const DOCUMENTATION = { summary: 25, description: 20, parameters: 15, examples: 15, errors: 15, success: 10 } as const;

export function documentation(parts: OperationParts, schemas: ReadonlyMap<string, unknown>): Subscore {
  const { operation, parameters, requests, responses } = parts;
  const fixes: string[] = [];
  let score = 0;
  const earn = (points: number, share: number, fix: string) => {
    score += points * share;
    if (share < 1) fixes.push(fix);
  };
  earn(DOCUMENTATION.summary, wordy(operation['summary'], 2) ? 1 : 0, 'add a summary of two words or more');
  earn(DOCUMENTATION.description, wordy(operation['description'], 4) ? 1 : 0, 'add a description of a sentence or more');
  const described = parameters.filter((parameter) => wordy(parameter['description'], 2));
  const undescribed = parameters.filter((parameter) => !described.includes(parameter)).map((parameter) => String(parameter['name']));
  earn(DOCUMENTATION.parameters, share(described.length, parameters.length), `describe the parameters ${undescribed.join(', ')}`);
  const bodies = [...requests, ...responses.filter((response) => isSuccess(response))].filter((record) => record['contentMediaType'] !== null && record['schema'] !== undefined);
  const exemplified = bodies.filter((record) => hasExample(record, schemas)).length;
  earn(DOCUMENTATION.examples, share(exemplified, bodies.length), 'give examples of the request and success response bodies');
  earn(DOCUMENTATION.errors, responses.some((response) => isError(response)) ? 1 : 0, 'document the error responses (4XX, 5XX or default)');
  earn(DOCUMENTATION.success, responses.some((response) => isSuccess(response) && wordy(response['description'])) ? 1 : 0, 'document a success response with a description');
  return { score: Math.round(score), fixes };
}

/** Points for each security matter; they add up to 100. OWASP findings then take points off. */
export const SECURITY = { declared: 40, resolved: 15, scopes: 15, noSecretsInUrl: 20, refusals: 10 } as const;
/** Points an OWASP finding on the operation takes off, by severity, at most OWASP_CAP in all. */
export const OWASP_PENALTY: Readonly<Record<string, number>> = { error: 10, warn: 5, info: 2, hint: 0 };
export const OWASP_CAP = 40;

/** A lint finding as the lint room stores it (server/lint/reports.ts); `operation` when it is about one. */
export interface LintFinding { code: string; severity: 'error' | 'warn' | 'info' | 'hint' | string; message: string; path: string; operation?: { method: string; path: string } }

const SECRET_NAME = /(api[-_]?key|access[-_]?token|secret|password|passwd|client[-_]?secret|auth[-_]?token|^token$|^key$)/i;

export function security(parts: OperationParts, service: CatalogRecord, schemes: readonly CatalogRecord[], owasp: readonly LintFinding[] = []): Subscore {
  const { operation, parameters, responses, servers } = parts;
  const fixes: string[] = [];
  let score = 0;
  const requirement = Array.isArray(operation['security']) ? operation['security'] : Array.isArray(service['security']) ? service['security'] : undefined;
  const alternatives = (requirement ?? []).filter(isObject);
  const named = alternatives.flatMap((alternative) => Object.entries(alternative).map(([name, scopes]) => ({ name, scopes: Array.isArray(scopes) ? scopes : [] })));
  const public_ = requirement !== undefined && (alternatives.length === 0 || alternatives.some((alternative) => Object.keys(alternative).length === 0));
  if (requirement !== undefined) score += SECURITY.declared;
  else fixes.push('declare the security requirement (an empty one if the operation is public)');
  const schemeOf = (name: string) => schemes.find((scheme) => scheme.id === name || scheme['name'] === name);
  const unresolved = named.filter(({ name }) => !schemeOf(name)).map(({ name }) => name);
  if (unresolved.length === 0) score += SECURITY.resolved;
  else fixes.push(`declare the security schemes ${unresolved.join(', ')}`);
  const scopeless = named.filter(({ name, scopes }) => ['oauth2', 'openIdConnect'].includes(String(schemeOf(name)?.['type'])) && scopes.length === 0).map(({ name }) => name);
  if (scopeless.length === 0) score += SECURITY.scopes;
  else fixes.push(`name the scopes the operation needs of ${scopeless.join(', ')}`);
  const leaks = [
    ...parameters.filter((parameter) => parameter['in'] === 'query' && SECRET_NAME.test(String(parameter['name']))).map((parameter) => `query parameter ${String(parameter['name'])}`),
    ...named.map(({ name }) => schemeOf(name)).filter((scheme) => scheme?.['type'] === 'apiKey' && scheme['in'] === 'query').map((scheme) => `API key scheme ${String(scheme!['name'])} in the query`),
    ...servers.filter((server) => /\/\/[^/@]+@|[?&][^=]*(key|token|secret)=/i.test(String(server['url']))).map((server) => `server URL ${String(server['url'])}`),
  ];
  if (leaks.length === 0) score += SECURITY.noSecretsInUrl;
  else fixes.push(`move secrets out of URLs: ${leaks.join(', ')}`);
  if (public_ || named.length === 0 || responses.some((response) => response['statusCode'] === 401 || response['statusCode'] === 403)) score += SECURITY.refusals;
  else fixes.push('document the 401 or 403 answer');
  const penalty = Math.min(OWASP_CAP, owasp.reduce((sum, finding) => sum + (OWASP_PENALTY[finding.severity] ?? 0), 0));
  if (penalty > 0) fixes.push(...[...new Set(owasp.filter((finding) => (OWASP_PENALTY[finding.severity] ?? 0) > 0).map((finding) => `${finding.code}: ${finding.message}`))]);
  return { score: Math.max(0, score - penalty), fixes };
}

/**
 * What makes a call hard to get right, each taking points off up to its cap: more parameters
 * than `free`, more required ones, deep or polymorphic bodies, large bodies, a made-up
 * operationId, no success schema to read the answer by.
 */
export const READINESS = {
  parameters: { free: 6, each: 3, cap: 20 },
  required: { free: 3, each: 4, cap: 15 },
  depth: { free: 3, each: 5, cap: 20 },
  polymorphism: { free: 0, each: 5, cap: 15 },
  bodySize: { free: 20, each: 0.5, cap: 15 },
  operationId: { cap: 10 },
  successSchema: { cap: 5 },
} as const;

export function readiness(parts: OperationParts, schemas: ReadonlyMap<string, unknown>): Subscore {
  const { operation, parameters, requests, responses } = parts;
  const fixes: string[] = [];
  let score = 100;
  const lose = (rule: { free: number; each: number; cap: number }, count: number, fix: string) => {
    const lost = Math.min(rule.cap, Math.max(0, count - rule.free) * rule.each);
    if (lost > 0) {
      score -= lost;
      fixes.push(fix);
    }
  };
  lose(READINESS.parameters, parameters.length, `fewer parameters (${parameters.length})`);
  const required = parameters.filter((parameter) => parameter['required'] === true).length;
  lose(READINESS.required, required, `fewer required parameters (${required})`);
  const bodies = [...requests, ...responses.filter((response) => isSuccess(response))].map((record) => shapeOf(record['schema'], schemas));
  const request = requests.map((record) => shapeOf(record['schema'], schemas));
  const depth = Math.max(0, ...bodies.map((shape) => shape.depth));
  lose(READINESS.depth, depth, `flatter bodies (nested ${depth} deep)`);
  const polymorphic = Math.max(0, ...request.map((shape) => shape.polymorphic));
  lose(READINESS.polymorphism, polymorphic, `fewer oneOf/anyOf in the request body (${polymorphic})`);
  const size = Math.max(0, ...request.map((shape) => shape.properties));
  lose(READINESS.bodySize, size, `a smaller request body (${size} properties)`);
  if (markOf(operation)?.generated?.includes('operationId')) {
    score -= READINESS.operationId.cap;
    fixes.push('give an operationId');
  }
  if (!responses.some((response) => isSuccess(response) && (response['schema'] !== undefined || response['contentMediaType'] === null && operation['method'] !== 'get'))) {
    score -= READINESS.successSchema.cap;
    fixes.push('give the success response a schema');
  }
  return { score: Math.max(0, Math.round(score)), fixes };
}

export function isSuccess(response: CatalogRecord): boolean {
  const status = response['statusCode'];
  return typeof status === 'number' && status >= 200 && status < 300;
}

function isError(response: CatalogRecord): boolean {
  const status = response['statusCode'];
  return status === null || (typeof status === 'number' && status >= 400);
}

function share(part: number, whole: number): number {
  return whole === 0 ? 1 : part / whole;
}
