// The scores room: GET {prefix}/services/{id}/score and the tool get_service_score, reading the
// cards the scorer (scorer.ts) stores; the scorer itself is built with the runtime (boot.ts) and
// told of writes by the wiring in server/rooms.ts.
import type { Room } from '../routes/room.ts';
import { SCORES_TAG, scoreRoutes, type ScoreRouteParts } from './routes.ts';
import { scoreTools } from './tools.ts';

export function scoresRoom(parts: ScoreRouteParts): Room {
  return { tags: [SCORES_TAG], routes: scoreRoutes(parts), tools: scoreTools(parts) };
}
