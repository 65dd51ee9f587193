// The revision of each catalog version: tokens on its document in `versions`, replaced after
// every write to its records (one for the version, one per collection written), so that
// anything kept in memory about a version (the search index) is known fresh by one read by
// `_id` on any instance, and knows which collections, or which records, to read again: the
// last writes are listed beside the tokens (docs/storage.md).
import type { Collection, Db } from 'mongodb';
import { ulid } from 'ulid';

/** The version's tokens: `version` changes with every write, `collections[name]` with each write to that collection. */
export interface Revision { token: string; collections: Readonly<Record<string, string>> }

/**
 * One write as listed on the version: its token, the collections written and, for a small write,
 * the record ids. `empty`: the version's first entry, listed when it was created with no records.
 */
export interface Change { token: string; collections: readonly string[]; ids?: readonly string[]; empty?: true }

/** The revision fields of a version created with no records: one entry saying so, so that the first write's records can be applied to nothing. */
export function createdEmpty(): { revision: string; changes: string[] } {
  const token = ulid();
  const change: Change = { token, collections: [], empty: true };
  return { revision: token, changes: [JSON.stringify(change)] };
}

// The version document is read on every request (resolving the version), and FerretDB 1.24 reads
// it whole whatever the projection, at a cost that grows with its values: 32 entries as
// documents of arrays made each read 1.7 ms slower (5 ms with 16 ids each), as JSON strings
// 0.25 ms (0.6 ms). So each entry is one JSON string, and the list is short: more writes between
// two searches, or bigger ones, read the collections whole, about what those writes cost.
/** Writes listed per version: enough for the writes between two searches; older ones fall off. */
export const LISTED_CHANGES = 16;
/** Ids listed per write at most; a bigger write is listed as one to the whole collection. */
export const LISTED_IDS = 16;

interface VersionDocument { _id: string; revision?: string; revisions?: Record<string, string>; changes?: string[]; copyOf?: string }

/** What a copy keeps of its making (JSON on the version document): its source, and both revisions when it was made. */
interface CopyOf { versionId: string; source: string; copy: string }

/**
 * Bumps of one version queued in this process, where the database needs it. On MongoDB one
 * `$set` of several fields is atomic; FerretDB applies it as a read and a write of the whole
 * document, so two concurrent bumps could lose one's collection token. The embedded FerretDB
 * serves one instance, so a process-wide queue is enough there.
 */
const queues = new Map<string, Promise<void>>();

export class Revisions {
  readonly #versions: Collection<VersionDocument>;
  readonly #queued: boolean;

  /** `queued`: one bump of a version at a time in this process (FerretDB needs it; see above). */
  constructor(db: Db, options: { queued?: boolean } = {}) {
    this.#versions = db.collection('versions');
    this.#queued = options.queued ?? true;
  }

  /**
   * Marks the version's records as changed in these collections. Called AFTER the write, so a
   * reader that sees the new tokens reads the new records. Fresh unique tokens rather than
   * counters: a `$inc` that FerretDB applies as a read and a write could store one count for
   * two writers, and an index built between the two would never see the second.
   *
   * `token`: the revision to give, when the caller named it before the write (an event recorded
   * with the write waits for it: events/commits.ts); by default a new one.
   */
  bump(versionId: string, collections: readonly string[], ids?: readonly string[], token = ulid()): Promise<string> {
    const set = { revision: token, ...Object.fromEntries(collections.map((name) => [`revisions.${name}`, token])) };
    const change: Change = { token, collections, ...(ids && ids.length <= LISTED_IDS && { ids }) };
    // The change is listed in the same update as its tokens, so the list is in the order the
    // bumps were applied whatever the tokens' order across instances.
    const update = { $set: set, $push: { changes: { $each: [JSON.stringify(change)], $slice: -LISTED_CHANGES } } };
    // MongoDB applies `$slice`: one update, nothing read back.
    if (!this.#queued) return this.#versions.updateOne({ _id: versionId }, update).then(() => token);
    // FerretDB 1.24 ignores it (the embedded build applies it: docs/database.md, patch 15): the
    // list comes back, and is cut where the server left it too long (the whole document:
    // FerretDB 1.24 has no projection in findAndModify).
    const write = async () => {
      const after = await this.#versions.findOneAndUpdate({ _id: versionId }, update, { returnDocument: 'after' });
      await this.#trim(versionId, token, after?.changes);
    };
    const previous = queues.get(versionId) ?? Promise.resolve();
    const bumped = previous.catch(() => {}).then(write);
    queues.set(versionId, bumped);
    void bumped.catch(() => {}).finally(() => {
      if (queues.get(versionId) === bumped) queues.delete(versionId);
    });
    return bumped.then(() => token);
  }

  /**
   * FerretDB 1.24 accepts `$slice` in a `$push` and ignores it (the embedded build's patch 15
   * applies it), and has no update pipelines: there the list is cut to its last entries by a second update, kept
   * only if no bump landed since ours (bumps of a version are queued in the process FerretDB
   * serves). Dropping the oldest entries is always safe: a reader whose entry is gone reads the
   * collections whole. Not called on MongoDB, where `$slice` keeps the list to the cap.
   */
  async #trim(versionId: string, token: string, changes: string[] | undefined): Promise<void> {
    if (!changes || changes.length <= LISTED_CHANGES) return;
    await this.#versions.updateOne({ _id: versionId, revision: token }, { $set: { changes: changes.slice(-LISTED_CHANGES) } });
  }

  /**
   * Whether a write given `token` (bump's) committed: the version's revision is it, or lists it.
   * The list holds the last LISTED_CHANGES writes: when all of them came after it (ULIDs sort by
   * time), its own may have fallen off, and it is taken as committed rather than lost.
   */
  async committed(versionId: string, token: string): Promise<boolean> {
    const document = await this.#versions.findOne({ _id: versionId }, { projection: { revision: 1, changes: 1 } });
    const tokens = (document?.changes ?? []).map((entry) => (JSON.parse(entry) as Change).token);
    if (document?.revision === token || tokens.includes(token)) return true;
    return tokens.length >= LISTED_CHANGES && tokens[0]! > token;
  }

  /** The writes listed on the version, oldest first (empty when it is gone). */
  async changes(versionId: string): Promise<readonly Change[]> {
    const document = await this.#versions.findOne({ _id: versionId }, { projection: { changes: 1 } });
    return (document?.changes ?? []).map((entry) => JSON.parse(entry) as Change);
  }

  /**
   * Notes on `to`, a copy of `from` just made and bumped, the source's revision read BEFORE the
   * copy read its records (`source`) and the copy's own: while both stand, the two versions hold
   * the same records (a write to the source during the copy bumps it past `source`).
   */
  async markCopy(to: string, from: string, source: string): Promise<void> {
    const own = await this.of(to);
    if (!own) return;
    const copyOf: CopyOf = { versionId: from, source, copy: own.token };
    await this.#versions.updateOne({ _id: to }, { $set: { copyOf: JSON.stringify(copyOf) } });
  }

  /**
   * Whether two versions hold the same records, known without reading them: one is a copy of
   * the other (markCopy) and neither has been written since. False when it cannot say so.
   */
  async sameRecords(a: string, b: string): Promise<boolean> {
    const read = async (versionId: string) => this.#versions.findOne({ _id: versionId }, { projection: { revision: 1, copyOf: 1 } });
    const [first, second] = [await read(a), await read(b)];
    if (!first || !second) return false;
    const copied = (copy: VersionDocument, source: VersionDocument): boolean => {
      if (typeof copy.copyOf !== 'string') return false;
      const made = JSON.parse(copy.copyOf) as CopyOf;
      return made.versionId === source._id && made.source === (source.revision ?? '') && made.copy === (copy.revision ?? '');
    };
    return copied(second, first) || copied(first, second);
  }

  /**
   * The version's tokens ('' where never written since revisions exist), or null when the
   * version document is gone (deleted). Read BEFORE the records they stand for: a write landing
   * in between then leaves newer tokens than the ones kept.
   */
  async of(versionId: string): Promise<Revision | null> {
    const document = await this.#versions.findOne({ _id: versionId }, { projection: { revision: 1, revisions: 1 } });
    return document ? { token: document.revision ?? '', collections: document.revisions ?? {} } : null;
  }
}

/**
 * The record ids written to `collections` between two revisions of a version, by collection,
 * from its listed changes; null when the list cannot say (the entry of `from` has fallen off,
 * a write between names a whole collection, or an entry is missing: the last listed write to
 * a collection must carry the collection's token in `to`). The caller then reads whole collections.
 */
export function writtenBetween(changes: readonly Change[], from: Revision, to: Revision, collections: readonly string[]): Map<string, Set<string>> | null {
  const start = changes.findIndex((change) => change.token === from.token);
  const end = changes.findIndex((change) => change.token === to.token);
  if (start < 0 || end < start) return null;
  const written = new Map<string, Set<string>>();
  const last = new Map<string, string>();
  for (const change of changes.slice(start + 1, end + 1)) {
    const named = change.collections.filter((name) => collections.includes(name));
    if (named.length === 0) continue;
    if (!change.ids) return null;
    for (const name of named) {
      const ids = written.get(name) ?? new Set<string>();
      for (const id of change.ids) ids.add(id);
      written.set(name, ids);
      last.set(name, change.token);
    }
  }
  const accounted = collections.every((name) => (to.collections[name] ?? '') === (from.collections[name] ?? '') || last.get(name) === to.collections[name]);
  return accounted ? written : null;
}

/**
 * The change listed just before `token`, when `token` is listed: the state a write of `token`
 * was applied to, if nothing else was listed in between (every write is listed, in the order
 * applied); undefined when the list cannot say (the entry fell off, or `token` is not listed).
 */
export function listedBefore(changes: readonly Change[], token: string): Change | undefined {
  const at = changes.findIndex((change) => change.token === token);
  return at > 0 ? changes[at - 1] : undefined;
}

/** The revision after a write of `token` to `collections` on `from`, as its bump sets it. */
export function revisionAfter(from: Revision, token: string, collections: readonly string[]): Revision {
  return { token, collections: { ...from.collections, ...Object.fromEntries(collections.map((name) => [name, token])) } };
}
