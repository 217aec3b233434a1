/** `POST /api/benchmark/resume`: 200 with the status; 409 when the transition is not allowed. */
import type { Context } from "hono";
import { type DashboardEnv, servicesOf } from "../../../lib/control/services.ts";

/** Route handlers. */
export const handler = {
  POST: (c: Context<DashboardEnv>) => c.json(servicesOf(c).controller.resume()),
};
