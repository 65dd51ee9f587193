// List: one page of the version's records, in the requested order, from the cursor on.
import { InvalidRequest } from '../errors.ts';
import { CursorGone } from '../store/records.ts';
import type { RecordAction } from './context.ts';
import type { PaginationMetadata } from '../schemas/generated/types.ts';
import { listQueryOf, type ListValues } from './list-query.ts';

export const list: RecordAction = async ({ store, version, query }) => {
  const listQuery = listQueryOf(store.collection, version.versionId, query as ListValues);
  try {
    const page = await store.list(listQuery);
    return {
      status: 200,
      body: { items: page.items, pagination: { nextCursor: page.nextCursor, hasMore: page.nextCursor !== null, limit: listQuery.limit } satisfies PaginationMetadata },
    };
  } catch (error) {
    if (error instanceof CursorGone) {
      throw InvalidRequest.field('cursor', 'its item does not exist, so this sort cannot resume from it; start again from the first page');
    }
    throw error;
  }
};
