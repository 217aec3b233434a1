/**
 * `POST /api/benchmark/start`: the benchmark arguments as JSON (`{"runs": 2, "context": 4096}`)
 * or a preset (`{"preset": "quick_test"}`). 202 with the status; 400 for bad arguments, 409 when
 * a benchmark is already running.
 */
import { bodyToArgs } from "../../../lib/dashboard/args.ts";
import { define } from "../../../lib/dashboard/services.ts";
import { readJsonObject } from "../../../lib/http/mod.ts";

/** Route handlers. */
export const handler = define.handlers({
  async POST(c) {
    const args = bodyToArgs(await readJsonObject(c));
    return c.json(await c.var.services.controller.start(args), 202);
  },
});
