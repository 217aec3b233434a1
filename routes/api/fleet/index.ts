/**
 * `GET /api/fleet`: the agents registered with the shared store — name, machine, last heartbeat,
 * current job with its latest status, last job — and whether this dashboard has a fleet at all
 * (`available`; a SQLite store has none, `reason` says why).
 */
import { define } from "../../../lib/dashboard/services.ts";
import { fleetAnswer } from "../../../lib/fleet/mod.ts";

/** Route handlers. */
export const handler = define.handlers({
  async GET(c) {
    return c.json(await fleetAnswer(c.var.services.fleet));
  },
});
