/** `GET /api/presets/{name}` (404 when unknown) and `DELETE` (204; 409 for a built-in). */
import { presetDelete, presetGet } from "../../../lib/dashboard/presets.ts";
import { define } from "../../../lib/dashboard/services.ts";

/** Route handlers. */
export const handler = define.handlers({
  GET: async (c) =>
    c.json(await presetGet(c.var.services.paths.presetsDir, c.req.param("name") ?? "")),
  async DELETE(c) {
    await presetDelete(c.var.services.paths.presetsDir, c.req.param("name") ?? "");
    return c.body(null, 204);
  },
});
