/** `DELETE /api/cache/{model_key}`: deletes one model variant and its history (keys may hold `/`). */
import type { Context } from "hono";
import { deleteCachedModel } from "../../../lib/control/cache.ts";
import { type DashboardEnv, servicesOf } from "../../../lib/control/services.ts";

/** Route handlers. */
export const handler = {
  DELETE: (c: Context<DashboardEnv>) =>
    c.json(deleteCachedModel(servicesOf(c), c.req.param("key") ?? "")),
};
