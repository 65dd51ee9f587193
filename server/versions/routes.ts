// The versions interface as data: method, path, target, access, statuses and the operation,
// run by the same pipeline as the record routes (and documented from the same fields).
import type { Endpoint } from '../pipeline.ts';
import { VERSION_SCHEMA, versionOperations, type VersionParts } from './operations.ts';

const PROJECT = '/v2/catalog/projects/:projectRef';
const BY_ID = '/v2/catalog/versions/:versionId';
// Exactly three segments after `projects`, so it never shadows the record routes of family P.
const BY_ADDRESS = `${PROJECT}/:versionType/:versionSlug`;

export function versionEndpoints(parts: VersionParts): Endpoint[] {
  const run = versionOperations(parts);
  const common = { body: false, query: false } as const;
  const version = VERSION_SCHEMA;
  return [
    { ...common, method: 'GET', path: `${PROJECT}/versions`, target: 'project', access: 'read', query: true, success: [200], run: run.list,
      summary: "List a project's versions", responseSchema: `${version}#/$defs/versionList` },
    { ...common, method: 'POST', path: `${PROJECT}/versions`, target: 'project', access: 'write', body: 'json', success: [201], longRunning: true, run: run.create,
      summary: 'Create a version, empty or as a copy of another', bodySchema: `${version}#/$defs/versionCreate`, responseSchema: version },
    { ...common, method: 'GET', path: BY_ID, target: 'V', access: 'read', success: [200], run: run.get, summary: 'Get a version', responseSchema: version },
    { ...common, method: 'DELETE', path: BY_ID, target: 'V', access: 'write', success: [204], longRunning: true, run: run.delete, summary: 'Delete a version and its records' },
    { ...common, method: 'GET', path: BY_ADDRESS, target: 'P', access: 'read', success: [200], run: run.get, summary: 'Get a version', responseSchema: version },
    { ...common, method: 'DELETE', path: BY_ADDRESS, target: 'P', access: 'write', success: [204], longRunning: true, run: run.delete, summary: 'Delete a version and its records' },
    { ...common, method: 'GET', path: `${BY_ID}/diff`, target: 'V', access: 'read', query: true, success: [200], longRunning: true, run: run.diff,
      summary: 'Compare two versions', responseSchema: `${version}#/$defs/versionDiff` },
  ];
}
