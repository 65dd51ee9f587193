// A service's score card before anything is written (the gate and the dry run): the candidate
// document's records (records.ts) put in place of the service's stored ones in a view of the
// version, and findability asked against that view's index, so the candidate's operations
// compete with the version's other services as they would once written.
import type { JsonObject } from '../json/values.ts';
import { SEARCH_COLLECTIONS, viewFrom, type Name, type VersionView } from '../search/endpoints.ts';
import { VersionIndex } from '../search/ranking.ts';
import type { CatalogRecord } from '../store/records.ts';
import { scoreCard, type ScoreCard } from './card.ts';
import { documentServiceRecords, type ServiceRecords } from './records.ts';
import type { LintFinding } from './subscores.ts';

/** The view `others` (the version as stored, or none) with the candidate's records in place of service `replaced`'s. */
export function viewWith(versionId: string, candidate: ServiceRecords, others?: VersionView, replaced?: string): VersionView {
  const own: Record<Name, CatalogRecord[]> = {
    services: [candidate.service], paths: candidate.paths, operations: candidate.operations, parameters: candidate.parameters,
    servers: candidate.servers, 'security-schemes': candidate.securitySchemes, requests: candidate.requests,
  };
  if (!others) return viewFrom(versionId, SEARCH_COLLECTIONS.map((name) => [name, own[name]] as const));
  // The replaced service's records, found through its paths and operations as search reads them.
  const paths = new Set(others.of('paths').filter((path) => path['serviceId'] === replaced).map((path) => path.id));
  const operations = new Set(others.of('operations').filter((operation) => paths.has(String(operation['pathId']))).map((operation) => operation.id));
  const owners = new Set([replaced, ...paths, ...operations]);
  const kept = (record: CatalogRecord) => record.id !== replaced && !owners.has(String(record['serviceId'] ?? record['pathId'] ?? record['operationId'] ?? ''));
  return viewFrom(versionId, SEARCH_COLLECTIONS.map((name) => [name, [...others.of(name).filter(kept), ...own[name]]] as const));
}

/** The card of a candidate document (prepared), as service `service` (its fields), among `others`. */
export async function candidateCard(versionId: string, document: JsonObject, service: Record<string, unknown>, options: { others?: VersionView; replaced?: string; findings?: readonly LintFinding[] } = {}): Promise<ScoreCard> {
  const records = documentServiceRecords(document, service, versionId);
  const index = await VersionIndex.of(viewWith(versionId, records, options.others, options.replaced));
  return scoreCard({ records, index, ...(options.findings ? { findings: options.findings } : {}) });
}
