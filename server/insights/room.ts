// The insights room: traffic reports in, the endpoints view and shadow endpoints out, and the
// tool list_insights.
import type { Room } from '../routes/room.ts';
import { VERSION_ARG } from '../routes/tool.ts';
import { INSIGHTS_TAG, insightRoutes, type InsightParts } from './routes.ts';
import { registerInsightTools } from './tools.ts';
import { lifecycleInsightRoutes } from './lifecycle-routes.ts';

export function insightsRoom(parts: InsightParts): Room {
  return {
    tags: [INSIGHTS_TAG],
    routes: [...insightRoutes(parts), ...lifecycleInsightRoutes(parts)],
    tools: [(server, answer) => registerInsightTools(server, { ...parts, versionArg: VERSION_ARG, answer })],
  };
}
