/** `POST /api/cache/clear`: backs the database up, then deletes every result (409 while running). */
import type { Context } from "hono";
import { clearCacheWithBackup } from "../../../lib/control/cache.ts";
import { type DashboardEnv, servicesOf } from "../../../lib/control/services.ts";

/** Route handlers. */
export const handler = {
  POST: async (c: Context<DashboardEnv>) => c.json(await clearCacheWithBackup(servicesOf(c))),
};
