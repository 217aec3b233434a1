/**
 * `POST /api/system/shutdown`: stops the benchmark (no-op when idle), answers 200, then the
 * process terminates itself gracefully after a short delay.
 */
import { define } from "../../../lib/dashboard/services.ts";

/** Route handlers. */
export const handler = define.handlers({
  async POST(c) {
    await c.var.services.shutdown();
    return c.json({ status: "shutting_down" });
  },
});
