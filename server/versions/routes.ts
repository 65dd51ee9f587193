// The versions interface as data: method, path, target, access, statuses and the operation,
// run by the same pipeline as the record routes (and documented from the same fields).
import type { Endpoint } from '../pipeline.ts';
import { versionOperations, type VersionParts } from './operations.ts';

const PROJECT = '/v2/catalog/projects/:projectRef';
const BY_ID = '/v2/catalog/versions/:versionId';
// Exactly three segments after `projects`, so it never shadows the record routes of family P.
const BY_ADDRESS = `${PROJECT}/:versionType/:versionSlug`;

export function versionEndpoints(parts: VersionParts): Endpoint[] {
  const run = versionOperations(parts);
  const common = { body: false, query: false } as const;
  return [
    { ...common, method: 'GET', path: `${PROJECT}/versions`, target: 'project', access: 'read', query: true, success: [200], run: run.list },
    { ...common, method: 'POST', path: `${PROJECT}/versions`, target: 'project', access: 'write', body: true, success: [201], run: run.create },
    { ...common, method: 'GET', path: BY_ID, target: 'V', access: 'read', success: [200], run: run.get },
    { ...common, method: 'DELETE', path: BY_ID, target: 'V', access: 'write', success: [204], run: run.delete },
    { ...common, method: 'GET', path: BY_ADDRESS, target: 'P', access: 'read', success: [200], run: run.get },
    { ...common, method: 'DELETE', path: BY_ADDRESS, target: 'P', access: 'write', success: [204], run: run.delete },
    { ...common, method: 'GET', path: `${BY_ID}/diff`, target: 'V', access: 'read', query: true, success: [200], run: run.diff },
  ];
}
