/** `POST /api/benchmark/resume`: 200 with the status; 409 when the transition is not allowed. */
import { define } from "../../../lib/dashboard/services.ts";

/** Route handlers. */
export const handler = define.handlers({
  POST: (c) => c.json(c.var.services.controller.resume()),
});
