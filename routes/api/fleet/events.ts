/**
 * `GET /api/fleet/events?machine=NAME`: server-sent events of the agents' jobs, each
 * `{agent, job, event}` with the event in the shape of `/api/benchmark/events` (status, runs,
 * results, logs) plus `{type: "job", state}` at a job's start and end; `machine` keeps one
 * agent's. Capped per client and overall like the benchmark's stream.
 */
import { define } from "../../../lib/dashboard/services.ts";
import { checkAgentName, requireFleet } from "../../../lib/fleet/mod.ts";
import { clientAddress, sseResponse } from "../../../lib/http/mod.ts";

/** Route handlers. */
export const handler = define.handlers({
  GET(c) {
    const fleet = requireFleet(c.var.services.fleet);
    const machine = c.req.query("machine");
    if (machine !== undefined) checkAgentName(machine);
    return sseResponse(c, (send) =>
      fleet.events.subscribe((item) => {
        if (machine === undefined || item.event.agent === machine) {
          send({ id: item.id, data: item.event });
        }
      }, null), { slots: fleet.events.slots, key: clientAddress(c) });
  },
});
