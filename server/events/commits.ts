// What shows that the write an event was recorded with committed, read back by the worker for
// an event whose writer stopped before saying so: the revision an import gives its version
// (tenancy/revisions.ts lists the last writes on the version document), the record a record
// write leaves or takes away, the version a create, copy or delete leaves or takes away, the
// document a room keeps of its own (a lint report, a score card) stamped when it was written.
import type { Db } from 'mongodb';
import type { Revisions } from '../tenancy/revisions.ts';
import type { RecordStore } from '../store/records.ts';
import type { VersionType } from '../tenancy/versions.ts';

export type CommitCheck =
  /** An import: committed once its version lists the revision it wrote under. */
  | { kind: 'revision'; versionId: string; token: string }
  /** A record written (`gone`: deleted) no earlier than `since`. */
  | { kind: 'record'; collection: string; versionId: string; id: string; gone: boolean; since: string }
  /** A version made at this address no earlier than `since` (visible: a copy once it is whole). */
  | { kind: 'version-made'; projectId: string; type: VersionType; slug: string; since: string }
  /** A version gone. */
  | { kind: 'version-gone'; versionId: string }
  /** A document of `collection` whose date `field` says it was written no earlier than `since`. */
  | { kind: 'document'; collection: string; id: string; field: string; since: string };

export type Verdict = 'committed' | 'not yet';

export interface CommitSources {
  db: Db;
  stores: ReadonlyMap<string, RecordStore>;
  /** The versions' revisions: an import's write is committed once its version lists its token. */
  revisions: Pick<Revisions, 'committed'>;
  /** A visible version by id or address (tenancy). */
  versions: {
    find(id: string): Promise<{ createdAt: Date } | null>;
    findByAddress(projectId: string, type: VersionType, slug: string): Promise<{ createdAt: Date } | null>;
  };
}

export async function verdictOf(check: CommitCheck, sources: CommitSources): Promise<Verdict> {
  switch (check.kind) {
    case 'revision':
      return await sources.revisions.committed(check.versionId, check.token) ? 'committed' : 'not yet';
    case 'record': {
      const store = sources.stores.get(check.collection);
      const record = store && await store.get(check.versionId, check.id);
      if (check.gone) return record ? 'not yet' : 'committed';
      return record && String(record['updatedAt']) >= check.since ? 'committed' : 'not yet';
    }
    case 'version-made': {
      const version = await sources.versions.findByAddress(check.projectId, check.type, check.slug);
      return version && version.createdAt.toISOString() >= check.since ? 'committed' : 'not yet';
    }
    case 'version-gone':
      return (await sources.versions.find(check.versionId)) ? 'not yet' : 'committed';
    case 'document': {
      const document = await sources.db.collection<{ _id: string }>(check.collection).findOne({ _id: check.id }, { projection: { [check.field]: 1 } });
      const written = (document as Record<string, unknown> | null)?.[check.field];
      return written instanceof Date && written.toISOString() >= check.since ? 'committed' : 'not yet';
    }
  }
}
