// Routes about a whole version rather than one collection (today: its integrity report), as
// endpoints on both families, run by the same pipeline as the record routes.
import { integrity } from '../operations/integrity.ts';
import type { Endpoint } from '../pipeline.ts';
import type { RecordStore } from '../store/records.ts';
import { FAMILIES } from './table.ts';

export const INTEGRITY_SEGMENT = 'integrity';

export function wholeVersionEndpoints(stores: ReadonlyMap<string, RecordStore>): Endpoint[] {
  return FAMILIES.map((family) => ({
    method: 'GET',
    path: `${family.prefix}/${INTEGRITY_SEGMENT}`,
    target: family.name,
    access: 'read',
    body: false,
    query: false,
    success: [200],
    // It reads every collection of the version: its cost is the version's size, not one call's.
    longRunning: true,
    summary: 'Report dangling references',
    run: ({ version }) => integrity({ version: version!, stores }),
  }));
}
