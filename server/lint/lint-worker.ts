// The lint thread (linter.ts starts it): each task an exported description in pieces and the
// project's settings, each answer its findings. Spectral holds the thread for seconds on a
// large description (GitHub's); here that is no request's time.
import type { MessagePort } from 'node:worker_threads';
import { documentOf, type Pieces } from '../descriptions/pieces.ts';
import { lintText } from './engine.ts';
import type { Finding } from './findings.ts';
import type { LintSettings } from './settings.ts';

/** `started`: told when this thread starts on the task, from when its time bound counts (linter.ts). */
export type LintTask = { pieces: Pieces; settings: LintSettings; started: MessagePort };

/** Nothing: run when a lint is owed, so that the thread has loaded Spectral by the time the lint's description is exported (linter.ts warmLane). */
export function warm(): boolean {
  return true;
}

export default async function lintPieces({ pieces, settings, started }: LintTask): Promise<Finding[]> {
  started.postMessage('started');
  started.close();
  return lintText(JSON.stringify(await documentOf(pieces)), settings);
}
