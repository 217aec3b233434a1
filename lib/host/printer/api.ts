/**
 * Print-host style printer endpoints over the virtual printer: `GET /api/printer`,
 * `POST /api/printer/{tool,bed,chamber}`, `GET /api/job`, `POST /api/job`.
 *
 * @module
 */
import { Hono } from "hono";
import { UsageError } from "../../error.ts";
import { readJsonObject } from "../../http/mod.ts";
import { requirePermission } from "../auth/mod.ts";
import type { VirtualPrinter } from "./virtual_printer.ts";
import { isPlainObject } from "../../shared/json_object.ts";
import { STATE_TEXT, stateOf } from "./state_text.ts";

function targetOf(body: Record<string, unknown>): number {
  if (body.command !== "target") {
    throw new UsageError(`Unknown command '${String(body.command)}'`);
  }
  if (typeof body.target !== "number") throw new UsageError("'target' must be a number");
  return body.target;
}

/**
 * The printer sub-app (mount at `/api`). `job: false` leaves `/api/job` to `jobRoutes()` (the
 * printer that prints uploaded files).
 */
export function printerRoutes(printer: VirtualPrinter, options: { job?: boolean } = {}): Hono {
  const app = new Hono();
  app.get("/printer", requirePermission("STATUS"), (c) => {
    const snap = printer.snapshot();
    const temperature: Record<string, unknown> = {};
    for (const [name, r] of Object.entries(snap.temperatures)) {
      temperature[name] = { actual: r.actual, target: r.target ?? 0, offset: 0 };
    }
    return c.json({ temperature, state: stateOf(snap.state), time: snap.time });
  });
  app.post("/printer/tool", requirePermission("CONTROL"), async (c) => {
    const body = await readJsonObject(c);
    if (body.command !== "target") {
      throw new UsageError(`Unknown command '${String(body.command)}'`);
    }
    const targets = body.targets;
    if (!isPlainObject(targets)) {
      throw new UsageError("'targets' must be an object of tool name to temperature");
    }
    const entries = Object.entries(targets);
    for (const [name, value] of entries) {
      if (!/^tool\d+$/.test(name) || !printer.heaterNames().includes(name)) {
        throw new UsageError(`Unknown tool '${name}'`);
      }
      if (typeof value !== "number") throw new UsageError(`Target of ${name} must be a number`);
    }
    for (const [name, value] of entries) printer.setTarget(name, value as number);
    return c.body(null, 204);
  });
  for (const heater of ["bed", "chamber"]) {
    app.post(`/printer/${heater}`, requirePermission("CONTROL"), async (c) => {
      printer.setTarget(heater, targetOf(await readJsonObject(c)));
      return c.body(null, 204);
    });
  }
  if (options.job === false) return app;
  app.get("/job", requirePermission("STATUS"), (c) => {
    const s = printer.jobStatus();
    return c.json({
      job: { file: { name: s.printTime === null ? null : "virtual_job.gcode" } },
      progress: {
        completion: s.completion,
        printTime: s.printTime,
        printTimeLeft: s.printTimeLeft,
      },
      state: STATE_TEXT[s.state],
    });
  });
  app.post("/job", requirePermission("CONTROL"), async (c) => {
    const body = await readJsonObject(c);
    if (typeof body.command !== "string") throw new UsageError("'command' must be a string");
    printer.job(body.command, typeof body.action === "string" ? body.action : "toggle");
    return c.body(null, 204);
  });
  return app;
}
