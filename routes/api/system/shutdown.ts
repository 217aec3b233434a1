/**
 * `POST /api/system/shutdown`: stops the benchmark (no-op when idle), answers 200, then the
 * process terminates itself gracefully after a short delay.
 */
import type { Context } from "hono";
import { type DashboardEnv, servicesOf } from "../../../lib/control/services.ts";

/** Route handlers. */
export const handler = {
  async POST(c: Context<DashboardEnv>) {
    await servicesOf(c).shutdown();
    return c.json({ status: "shutting_down" });
  },
};
