/**
 * `POST /api/benchmark/stop`: aborts the in-flight request, unloads the model and answers once
 * the benchmark is idle again; 409 when nothing runs.
 */
import type { Context } from "hono";
import { type DashboardEnv, servicesOf } from "../../../lib/control/services.ts";

/** Route handlers. */
export const handler = {
  POST: async (c: Context<DashboardEnv>) => c.json(await servicesOf(c).controller.stop()),
};
