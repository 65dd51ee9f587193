// What every operation receives once the pipeline has authenticated, resolved and authorized.
import type { Outcome } from '../routes/route.ts';
import type { RecordStore } from '../store/records.ts';
import type { ResolvedVersion } from '../routes/route.ts';

export interface ActionContext {
  store: RecordStore;
  version: ResolvedVersion;
  /** The item id of item routes, already checked against the id format. */
  id: string;
  /** The parsed JSON body of create, replace and update. */
  body: unknown;
  /** Query parameters as Express parsed them (repeated parameters become arrays). */
  query: Readonly<Record<string, unknown>>;
}

export type RecordAction = (context: ActionContext) => Promise<Outcome>;
