/** `GET /api/status`: status (`idle` | `running` | `paused`), model, progress, last outcome. */
import type { Context } from "hono";
import { type DashboardEnv, servicesOf } from "../../lib/control/services.ts";

/** Route handlers. */
export const handler = {
  GET: (c: Context<DashboardEnv>) => c.json(servicesOf(c).controller.status()),
};
