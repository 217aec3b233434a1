/** `GET /api/presets/{name}` (404 when unknown) and `DELETE` (204; 409 for a built-in). */
import type { Context } from "hono";
import { presetDelete, presetGet } from "../../../lib/control/presets.ts";
import { type DashboardEnv, servicesOf } from "../../../lib/control/services.ts";

/** Route handlers. */
export const handler = {
  GET: async (c: Context<DashboardEnv>) =>
    c.json(await presetGet(servicesOf(c).paths.presetsDir, c.req.param("name") ?? "")),
  async DELETE(c: Context<DashboardEnv>) {
    await presetDelete(servicesOf(c).paths.presetsDir, c.req.param("name") ?? "");
    return c.body(null, 204);
  },
};
