// A large description prepared (document.ts: validated, upgraded, dereferenced) on a thread of
// its own instead of the request's: on Microsoft Graph beta that work held the event loop for
// minutes on a loaded machine, and every other tenant's requests waited (or failed) behind it.
// The prepared document comes back in pieces read back between other work (pieces.ts); a 400
// comes back as its details and is thrown again here, the same answer as on this thread. One
// thread (piscina), started on first need, let go of after ten idle minutes, unreferenced so
// it never holds the process open. A small description is prepared here: handing it over
// would cost more than it holds the thread.
import v8 from 'node:v8';
import { Piscina } from 'piscina';
import { InvalidRequest, type FieldProblem } from '../errors.ts';
import { prepareDocument } from './document.ts';
import { documentOf } from './pieces.ts';
import type { PreparedAnswer, PreparationTask } from './prepare-worker.ts';
import type { JsonObject } from '../json/values.ts';
import type { RecordLimits } from '../store/record-cost.ts';

/** Serialised size from which a description is prepared on the thread (Giphy: 30 KB; Asana: 0.4 MB; GitHub: 5.4 MB). */
export const OFF_THREAD_BYTES = 200_000;
const IDLE_MS = 10 * 60_000;

let pool: Piscina<PreparationTask, PreparedAnswer> | undefined;

type Limits = Pick<RecordLimits, 'maxDepth' | 'maxKeys'>;

/** prepareDocument's answer on `input` under `limits`, computed off this thread when it is large. `offThreadFrom`: for tests. */
export async function prepareAside(input: unknown, limits: Limits, { offThreadFrom = OFF_THREAD_BYTES } = {}): Promise<JsonObject> {
  // Not an object: refused at once, as prepareDocument does (and a non-object may not serialise).
  if (typeof input !== 'object' || input === null) return prepareDocument(input, limits);
  const serialised = serialisedOrNot(input);
  // Too deep to serialise: prepareDocument refuses it here at once, naming the depth bound.
  if (serialised === undefined || serialised.length < offThreadFrom) return prepareDocument(input, limits);
  pool ??= new Piscina({ filename: new URL('./prepare-worker.ts', import.meta.url).href, minThreads: 0, maxThreads: 1, idleTimeout: IDLE_MS });
  const answer = await pool.run({ document: serialised, limits: { maxDepth: limits.maxDepth, maxKeys: limits.maxKeys } }, { transferList: [serialised.buffer as ArrayBuffer] });
  if ('refused' in answer) throw new InvalidRequest(answer.refused as FieldProblem[]);
  return documentOf(answer.pieces);
}

function serialisedOrNot(input: object): Buffer | undefined {
  try {
    return v8.serialize(input);
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}
