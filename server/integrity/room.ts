// The integrity room: a whole version's report of records whose references lead nowhere.
import type { Room } from '../routes/room.ts';
import type { RecordStore } from '../store/records.ts';
import { INTEGRITY_TAG, integrityRoutes } from './routes.ts';

export function integrityRoom({ stores }: { stores: ReadonlyMap<string, RecordStore> }): Room {
  return { tags: [INTEGRITY_TAG], routes: integrityRoutes(stores) };
}
