/**
 * Print-host style printer endpoints over the host's {@linkcode Printer}: `GET /api/printer`
 * (temperatures and state), `POST /api/printer/{tool,bed,chamber}` (targets),
 * `POST /api/printer/command` (G-code as typed in a terminal), `GET /api/printer/terminal` (the
 * terminal's recent lines), `GET /api/job`, `POST /api/job`.
 *
 * @module
 */
import { Hono } from "hono";
import { UsageError } from "../../error.ts";
import { readJsonObject } from "../../http/mod.ts";
import type { Printer, PrinterState } from "../../printer/printer.ts";
import { stateText } from "../../printer/service.ts";
import { isPlainObject } from "../../shared/json_object.ts";
import { requirePermission } from "../auth/mod.ts";

/** OctoPrint's state object: its text, id and flags. */
function stateOf(printer: Printer) {
  const status = printer.connection();
  const state: PrinterState = status.state;
  const busy = ["PRINTING", "PAUSING", "PAUSED", "RESUMING", "CANCELLING", "FINISHING"];
  return {
    text: stateText(status),
    id: state,
    error: status.error,
    flags: {
      operational: state !== "OFFLINE" && state !== "ERROR" && state !== "CONNECTING",
      printing: state === "PRINTING",
      paused: state === "PAUSED",
      pausing: state === "PAUSING",
      cancelling: state === "CANCELLING",
      finishing: state === "FINISHING",
      ready: state === "OPERATIONAL",
      error: state === "ERROR",
      closedOrError: state === "ERROR" || state === "OFFLINE",
      busy: busy.includes(state),
    },
  };
}

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
    return c.json({ temperature, state: stateOf(printer), time: snap.time });
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
  app.get("/job", requirePermission("STATUS"), (c) => {
    const job = printer.job();
    return c.json({
      job: { file: job.file },
      progress: {
        completion: job.progress.completion,
        filepos: job.progress.filepos,
        printTime: job.progress.printTime,
        printTimeLeft: job.progress.printTimeLeft,
      },
      state: stateText(printer.connection()),
    });
  });
  app.post("/job", requirePermission("CONTROL"), async (c) => {
    const body = await readJsonObject(c);
    const state = printer.connection().state;
    switch (body.command) {
      case "start":
        await printer.startJob(typeof body.file === "string" ? body.file : "");
        break;
      case "cancel":
        await printer.cancelJob();
        break;
      case "pause": {
        const action = body.action ?? "toggle";
        const pause = action === "pause" || (action === "toggle" && state === "PRINTING");
        await (pause ? printer.pauseJob() : printer.resumeJob());
        break;
      }
      default:
        throw new UsageError(`Unknown job command '${String(body.command)}'`);
    }
    return c.body(null, 204);
  });
  return app;
}
