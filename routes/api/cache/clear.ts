/** `POST /api/cache/clear`: backs the database up, then deletes every result (409 while running). */
import { clearCacheWithBackup } from "../../../lib/dashboard/cache.ts";
import { define } from "../../../lib/dashboard/services.ts";

/** Route handlers. */
export const handler = define.handlers({
  POST: async (c) => c.json(await clearCacheWithBackup(c.var.services)),
});
