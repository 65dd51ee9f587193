// One page of a collection's records for a list: filters, the keyset of the sort from the cursor
// on, and the cursor positions remembered for sorts other than by id (positions.ts).
import type { Collection as MongoCollection, Document, Filter } from 'mongodb';
import { keysetFilter, mongoSort, type SortKey } from './cursor.ts';
import type { CursorPositions } from './positions.ts';
import { CursorGone, documentId, type CatalogRecord, type ListQuery, type Page, type StoredDocument } from './record.ts';

export class RecordPages {
  readonly #documents: MongoCollection<StoredDocument>;
  readonly #positions: CursorPositions;
  readonly #toRecord: (document: Document) => CatalogRecord;

  constructor(documents: MongoCollection<StoredDocument>, positions: CursorPositions, toRecord: (document: Document) => CatalogRecord) {
    this.#documents = documents;
    this.#positions = positions;
    this.#toRecord = toRecord;
  }

  async list(query: ListQuery): Promise<Page> {
    const filter: Filter<StoredDocument> = {
      versionId: query.versionId,
      ...query.filters,
      ...(query.updatedAfter && { updatedAt: { $gt: query.updatedAfter } }),
    };
    const start = await this.#startOf(query);
    const documents = await this.#documents
      .find(start ? { $and: [filter, start] } : filter)
      .sort(mongoSort(query.sort))
      .limit(query.limit + 1)
      .toArray();
    const next = documents.length > query.limit ? documents.pop() : undefined;
    if (next && !sortedByIdAlone(query.sort)) await this.#positions.remember(query.versionId, query.sort, next);
    return { items: documents.map((document) => this.#toRecord(document)), nextCursor: next ? String(next['id']) : null };
  }

  async #startOf(query: ListQuery): Promise<Filter<StoredDocument> | undefined> {
    if (query.cursor === undefined) return undefined;
    // Sorted by id alone the cursor is all we need, even if its item has been deleted since.
    if (sortedByIdAlone(query.sort)) {
      return { id: { [query.sort[0]!.direction === 1 ? '$gte' : '$lte']: query.cursor } };
    }
    const position = await this.#positions.recall(query.versionId, query.sort, query.cursor)
      ?? await this.#documents.findOne({ _id: documentId(query.versionId, query.cursor) });
    if (!position) throw new CursorGone();
    return keysetFilter(query.sort, position);
  }
}

function sortedByIdAlone(sort: readonly SortKey[]): boolean {
  return sort.length === 1 && sort[0]!.field === 'id';
}
