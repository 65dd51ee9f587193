// Routes about a whole version rather than one collection (today: its integrity report), as
// endpoints on both families, run by the same pipeline as the record routes.
import { integrity } from './report.ts';
import type { Tag } from '../routes/documentation.ts';
import type { Route } from '../routes/route.ts';
import { SCHEMA_BASE } from '../schemas/registry.ts';
import type { RecordStore } from '../store/records.ts';
import { FAMILIES } from '../routes/route.ts';

export const INTEGRITY_TAG: Tag = {
  name: 'Integrity',
  description: 'References between records are not enforced on write; this report lists the dangling ones of a version.',
};

export function integrityRoutes(stores: ReadonlyMap<string, RecordStore>): Route[] {
  return FAMILIES.map((family) => ({
    method: 'GET',
    path: `${family.prefix}/integrity`,
    target: family.name,
    access: 'read',
    body: false,
    // It reads every collection of the version: its cost is the version's size, not one call's.
    longRunning: true,
    doc: {
      operationId: `getIntegrity${family.operationIdSuffix}`, tag: INTEGRITY_TAG.name, params: family.params,
      summary: 'Report dangling references',
      description: 'Per collection: reference fields (`serviceId`, `pathId`, `operationId`, ...) naming no record of the version, and `$ref`s `#/components/schemas/<name>` or `#/components/headers/<name>` naming no Resource or Header. At most 1,000 per collection, with `truncated`.',
      responses: [{ status: 200, description: 'The report.', schema: { $ref: `${SCHEMA_BASE}api/integrity.json` } }],
      errors: [],
    },
    run: ({ version }) => integrity({ version, stores }),
  }));
}
