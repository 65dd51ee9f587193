// Rules every record body follows (decisions.md, Identifiers): `updatedAt` is the service's,
// `versionId` comes from the route, and problems are reported before anything is stored.
import { Conflict, InvalidRequest } from '../errors.ts';
import type { CompiledCollection } from '../schemas/registry.ts';
import { NaturalKeyTaken, type CatalogRecord } from '../store/records.ts';

export type Fields = Record<string, unknown>;

/** The body as a fresh object of fields, or 400 when it is not a JSON object. */
export function fieldsOf(body: unknown): Fields {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw InvalidRequest.field('/', 'must be a JSON object');
  }
  // Ignored rather than refused, so a record read with GET can be sent back unchanged.
  const { updatedAt: _assignedByService, ...fields } = body as Fields;
  return fields;
}

/** `versionId` may be omitted; when given it must be the route's version. */
export function placeInVersion(fields: Fields, versionId: string): Fields {
  if (fields['versionId'] !== undefined && fields['versionId'] !== versionId) {
    throw InvalidRequest.field('/versionId', `must be the version addressed by the route (${versionId}) or be omitted`);
  }
  return { ...fields, versionId };
}

/** A body `id` must name the record of the route. */
export function requireSameId(fields: Fields, id: string): void {
  if (fields['id'] !== undefined && fields['id'] !== id) {
    throw InvalidRequest.field('/id', `must be the id in the route (${id}) or be omitted`);
  }
}

/** Validates a whole record against its schema (filling defaults), or throws 400 with the problems. */
export function checkedRecord(collection: CompiledCollection, fields: Fields): CatalogRecord {
  const problems = collection.checkRecord(fields);
  if (problems.length > 0) throw new InvalidRequest(problems);
  return fields as CatalogRecord;
}

/** Runs a write; a natural key held by another record becomes 409 naming the key's fields. */
export async function withNaturalKey<T>(collection: CompiledCollection, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!(error instanceof NaturalKeyTaken)) throw error;
    const holder = error.holder ? ` ${error.holder}` : '';
    const key = collection.naturalKey.join(', ');
    throw new Conflict(collection.naturalKey.map((field) => ({
      field: `/${field}`,
      message: `is taken: ${collection.record}${holder} has the same ${key} in this version (a missing value counts as null)`,
    })));
  }
}
