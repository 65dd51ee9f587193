// The comparison thread (comparer.ts starts it): each message is two documents of one service,
// each answer their changes, or why the library could not compare them.
import { parentPort } from 'node:worker_threads';
import { documentOf } from '../descriptions/pieces.ts';
import { compareUnlessSame } from './compare.ts';
import type { ComparisonAnswer, ComparisonAsk } from './comparer.ts';

parentPort!.on('message', async ({ id, before, after }: ComparisonAsk) => {
  const [old, current] = [await documentOf(before), await documentOf(after)];
  let answer: ComparisonAnswer;
  try {
    answer = { id, changes: compareUnlessSame(old, current) };
  } catch (error) {
    // api-smart-diff recurses on some schemas until the stack overflows (RangeError): a fact about the documents, reported.
    if (!(error instanceof RangeError)) throw error;
    answer = { id, failed: error.message };
  }
  parentPort!.postMessage(answer);
});
