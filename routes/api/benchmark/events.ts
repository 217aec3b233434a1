/**
 * `GET /api/benchmark/events`: server-sent events of typed JSON (`status`, `job_start`,
 * `model_start`, `run_end`, `tokens`, `hardware`, `log`, `job_end`...). A new client first gets
 * the current status, then the current run's recent events (or those after `Last-Event-ID`).
 * Streams are capped per client address and overall (429), and a client that falls behind is
 * told it lagged and closed (`lib/http/sse.ts`).
 */
import { define } from "../../../lib/dashboard/services.ts";
import { clientAddress, sseResponse } from "../../../lib/http/mod.ts";

/** Route handlers. */
export const handler = define.handlers({
  GET(c) {
    const { controller } = c.var.services;
    const last = Number(c.req.header("Last-Event-ID") ?? c.req.query("after") ?? "0");
    return sseResponse(c, (send) => {
      send({ data: { type: "status", ...controller.status() } });
      return controller.events.subscribe(
        (item) => send({ id: item.id, data: item.event }),
        Number.isFinite(last) && last > 0 ? last : 0,
      );
    }, { slots: controller.events.slots, key: clientAddress(c) });
  },
});
