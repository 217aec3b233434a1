/**
 * Print-host style printer endpoints over the host's {@linkcode Printer}: `GET /api/printer`
 * (temperatures and state; `?history=true&limit=N` adds the newest samples),
 * `POST /api/printer/{tool,bed,chamber}` (targets), `POST /api/printer/command` (G-code as typed
 * in a terminal), `GET /api/printer/terminal` (the terminal's recent lines). The job is
 * `./job_api.ts`'s.
 *
 * @module
 */
import { Hono } from "hono";
import { UsageError } from "../../error.ts";
import { readJsonObject } from "../../http/mod.ts";
import type { Printer } from "../../printer/printer.ts";
import { isPlainObject } from "../../shared/json_object.ts";
import { requirePermission } from "../auth/mod.ts";
import { stateOf } from "./state_text.ts";

/** The target of a `{command: "target", target}` body. */
function targetOf(body: Record<string, unknown>): number {
  if (body.command !== "target") {
    throw new UsageError(`Unknown command '${String(body.command)}': use target`);
  }
  if (typeof body.target !== "number") throw new UsageError("'target' must be a number");
  return body.target;
}

/** The lines of a `{command}` or `{commands: [...]}` body (at most 100, each a line). */
function commandsOf(body: Record<string, unknown>): string[] {
  const list = body.commands ?? (body.command === undefined ? undefined : [body.command]);
  if (
    !Array.isArray(list) || list.length === 0 || list.length > 100 ||
    !list.every((c) => typeof c === "string" && c.length <= 256 && !/[\r\n]/.test(c))
  ) {
    throw new UsageError("'command' or 'commands' must be 1 to 100 lines of G-code");
  }
  return list as string[];
}

/** The printer sub-app (mount at `/api`). */
export function printerRoutes(printer: Printer): Hono {
  const app = new Hono();
  app.get("/printer", requirePermission("STATUS"), (c) => {
    const snap = printer.snapshot();
    const temperature: Record<string, unknown> = {};
    for (const [name, r] of Object.entries(snap.temperatures)) {
      temperature[name] = { actual: r.actual, target: r.target ?? 0, offset: 0 };
    }
    // OctoPrint's `?history=true&limit=N`: the newest samples, oldest first.
    if (c.req.query("history") === "true") {
      const limit = Number(c.req.query("limit") ?? 300);
      if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) {
        throw new UsageError("'limit' must be an integer from 1 to 10000");
      }
      temperature.history = printer.history().slice(-limit).map((sample) => {
        const row: Record<string, unknown> = { time: Math.round(sample.time / 1000) };
        for (const [name, r] of Object.entries(sample.temperatures)) {
          row[name] = { actual: r.actual, target: r.target ?? 0 };
        }
        return row;
      });
    }
    return c.json({ temperature, state: stateOf(printer.connection()), time: snap.time });
  });
  app.post("/printer/tool", requirePermission("CONTROL"), async (c) => {
    const body = await readJsonObject(c);
    if (body.command !== "target") {
      throw new UsageError(`Unknown command '${String(body.command)}': use target`);
    }
    const targets = body.targets;
    if (!isPlainObject(targets)) {
      throw new UsageError("'targets' must be an object of tool name to temperature");
    }
    for (const [name, value] of Object.entries(targets)) {
      if (!/^tool\d{1,2}$/.test(name)) throw new UsageError(`Unknown tool '${name}'`);
      if (typeof value !== "number") throw new UsageError(`Target of ${name} must be a number`);
    }
    await printer.setTargets(targets as Record<string, number>);
    return c.body(null, 204);
  });
  for (const heater of ["bed", "chamber"]) {
    app.post(`/printer/${heater}`, requirePermission("CONTROL"), async (c) => {
      await printer.setTargets({ [heater]: targetOf(await readJsonObject(c)) });
      return c.body(null, 204);
    });
  }
  app.post("/printer/command", requirePermission("CONTROL"), async (c) => {
    await printer.commands(commandsOf(await readJsonObject(c)));
    return c.body(null, 204);
  });
  app.get("/printer/terminal", requirePermission("STATUS"), (c) => {
    return c.json({ lines: printer.terminal() });
  });
  return app;
}
