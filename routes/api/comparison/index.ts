/** `GET /api/comparison`: the models that have history, for the comparison picker. */
import type { Context } from "hono";
import { type DashboardEnv, servicesOf } from "../../../lib/control/services.ts";
import { comparableModels } from "../../../lib/store/dashboard.ts";

/** Route handlers. */
export const handler = {
  GET: (c: Context<DashboardEnv>) => c.json({ models: comparableModels(servicesOf(c).store.db) }),
};
