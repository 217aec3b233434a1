/**
 * `POST /api/benchmark/start`: the benchmark arguments as JSON (`{"runs": 2, "context": 4096}`)
 * or a preset (`{"preset": "quick_test"}`), run on this machine — or, with `"machine": NAME`, sent
 * to that fleet agent's queue (202 `{status: "queued", machine, job_id}`; 404 for an unknown
 * agent, 409 for one not running or a dashboard without the PostgreSQL store). 202 with the
 * status; 400 for bad arguments, 409 when a benchmark is already running here.
 */
import { bodyToArgs } from "../../../lib/dashboard/args.ts";
import { define } from "../../../lib/dashboard/services.ts";
import { requireFleet, takeMachine } from "../../../lib/fleet/mod.ts";
import { readJsonObject } from "../../../lib/http/mod.ts";

/** Route handlers. */
export const handler = define.handlers({
  async POST(c) {
    const body = await readJsonObject(c);
    const machine = takeMachine(body);
    const args = bodyToArgs(body);
    if (machine === null) return c.json(await c.var.services.controller.start(args), 202);
    const fleet = requireFleet(c.var.services.fleet);
    return c.json({ status: "queued", ...await fleet.start(machine, args) }, 202);
  },
});
