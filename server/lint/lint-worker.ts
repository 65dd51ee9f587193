// The lint thread (linter.ts starts it): each task an exported description in pieces and the
// project's settings, each answer its findings. Spectral holds the thread for seconds on a
// large description (GitHub's); here that is no request's time.
import { documentOf, type Pieces } from '../descriptions/pieces.ts';
import { lintText } from './engine.ts';
import type { Finding } from './findings.ts';
import type { LintSettings } from './settings.ts';

export type LintTask = { pieces: Pieces; settings: LintSettings };

export default async function lintPieces({ pieces, settings }: LintTask): Promise<Finding[]> {
  return lintText(JSON.stringify(await documentOf(pieces)), settings);
}
