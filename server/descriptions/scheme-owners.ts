// Security schemes stored before schemes had an owner: an import then shared one record per
// name and version among services (the last import's definition won), its importer named only
// in the `x-catalog` marker. At start-up each such record is given the service its marker names,
// when that service is in the version; the others stay version-wide. See docs/storage.md.
import type { RecordStore } from '../store/records.ts';
import { NaturalKeyTaken } from '../store/records.ts';
import { markOf } from '../store/mark.ts';

/** Gives imported schemes without `serviceId` the owner their marker names; how many it gave one. */
export async function ownImportedSchemes(stores: ReadonlyMap<string, RecordStore>): Promise<number> {
  const schemes = stores.get('security-schemes');
  const services = stores.get('services');
  if (!schemes || !services) return 0; // a catalog without these kinds has nothing to repair
  let owned = 0;
  for await (const scheme of schemes.withoutField('serviceId')) {
    const serviceId = markOf(scheme)?.service;
    if (typeof serviceId !== 'string' || !await services.get(scheme.versionId, serviceId)) continue;
    try {
      await schemes.exclusive(scheme.versionId, scheme.id, () =>
        schemes.update(scheme.versionId, scheme.id, { serviceId }, new Date(), { ...scheme, serviceId }));
      owned++;
    } catch (error) {
      // The service has its own scheme of that name already (imported again since): this one
      // stays version-wide, as it was.
      if (!(error instanceof NaturalKeyTaken)) throw error;
    }
  }
  return owned;
}
