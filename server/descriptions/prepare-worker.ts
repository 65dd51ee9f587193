// The preparation thread (preparation.ts starts it): each task a description, serialised; each
// answer the prepared document in pieces (pieces.ts), or the 400's details when it is refused.
// prepareDocument runs here as it runs on the request's thread, its validation aside included.
import v8 from 'node:v8';
import { InvalidRequest } from '../errors.ts';
import { prepareDocument } from './document.ts';
import { piecesOf, type Pieces } from './pieces.ts';
import type { RecordLimits } from '../store/record-cost.ts';

export type PreparedAnswer = { pieces: Pieces } | { refused: unknown };
/** A description, serialised, and the record limits its bounds derive from. */
export type PreparationTask = { document: Uint8Array; limits: Pick<RecordLimits, 'maxDepth' | 'maxKeys'> };

export default async function preparedOnSerialised({ document, limits }: PreparationTask): Promise<PreparedAnswer> {
  try {
    return { pieces: await piecesOf(await prepareDocument(v8.deserialize(document), limits)) };
  } catch (error) {
    // The class does not cross threads; its details do, and are thrown again as the same 400.
    if (error instanceof InvalidRequest) return { refused: error.details };
    throw error;
  }
}
