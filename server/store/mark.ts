// The import's marker in a record's kvStorage: which service imported the record and where it
// stood in the document (the order of paths, parameters and servers matters and records have no
// field for it). Positions only order records, they are not 0, 1, 2...: a re-import keeps a
// stored record's position wherever the document keeps its order and gives new records positions
// between their neighbours (document-order.ts), so one insertion rewrites no other record.
// Import writes it, export drops it, search and export order records by it, and
// schemas/collections.json names its `service` as the owner of the kinds nothing else ties to a
// service (`kvStorage.x-catalog.service`).

type Fields = Readonly<Record<string, unknown>>;

export const MARK = 'x-catalog';
/** The mark's service as a (dotted) field of the stored record: what an import reads its service's records by. */
export const MARKED_SERVICE = `kvStorage.${MARK}.service`;

export interface Mark {
  service: string;
  /** Where the record stands among the service's records in document order (any number; sort by it). */
  order: number;
  /**
   * Fields the import made up, which export leaves out: `operationId` (the document had none),
   * or a pointer into a field (`/variables/<name>/enum`: a server variable without an enum).
   */
  generated?: string[];
}

export function markOf(record: Fields): Mark | undefined {
  const kv = record['kvStorage'] as Fields | undefined;
  return kv?.[MARK] as Mark | undefined;
}

/** Records in their document's order (unmarked ones last), then by id. */
export function inDocumentOrder(a: Fields & { id: string }, b: Fields & { id: string }): number {
  const ao = markOf(a)?.order ?? Number.MAX_SAFE_INTEGER;
  const bo = markOf(b)?.order ?? Number.MAX_SAFE_INTEGER;
  return ao - bo || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
