// Routes about a whole version rather than one collection (today: its integrity report),
// described as data beside the route table and run through the same pipeline, on both families.
import type { Access } from '../auth/credential.ts';
import { integrity, type VersionOperation } from '../operations/integrity.ts';
import { FAMILIES, type Family } from './table.ts';

export interface VersionOperationSpec {
  name: 'integrity';
  method: 'GET';
  /** The segment after the family's prefix. */
  segment: string;
  access: Access;
  /** Success statuses, for documentation. */
  success: readonly number[];
  run: VersionOperation;
}

export const VERSION_OPERATIONS: readonly VersionOperationSpec[] = [
  { name: 'integrity', method: 'GET', segment: 'integrity', access: 'read', success: [200], run: integrity },
];

export interface VersionRoute {
  family: Family;
  operation: VersionOperationSpec;
  /** Express path, e.g. `/v2/catalog/versions/:versionId/integrity`. */
  path: string;
}

export function versionRouteTable(): VersionRoute[] {
  return FAMILIES.flatMap((family) => VERSION_OPERATIONS.map((operation) => ({
    family,
    operation,
    path: `${family.prefix}/${operation.segment}`,
  })));
}
