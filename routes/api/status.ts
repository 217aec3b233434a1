/** `GET /api/status`: status (`idle` | `running` | `paused`), model, progress, last outcome. */
import { define } from "../../lib/dashboard/services.ts";

/** Route handlers. */
export const handler = define.handlers({
  GET: (c) => c.json(c.var.services.controller.status()),
});
