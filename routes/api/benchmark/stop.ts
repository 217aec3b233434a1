/**
 * `POST /api/benchmark/stop`: aborts the in-flight request, unloads the model and answers once
 * the benchmark is idle again; 409 when nothing runs.
 */
import { define } from "../../../lib/dashboard/services.ts";

/** Route handlers. */
export const handler = define.handlers({
  POST: async (c) => c.json(await c.var.services.controller.stop()),
});
