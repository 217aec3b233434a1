/**
 * OctoPrint's job API over a {@linkcode Printer}: `GET /api/job` (STATUS) shows the selected or
 * printing file and its progress; `POST /api/job` (CONTROL) starts, cancels, restarts, pauses and
 * resumes it (`{command: "pause", action: "pause" | "resume" | "toggle"}`), 409 when the state
 * does not allow it.
 *
 * @module
 */
import { Hono } from "hono";
import { ConflictError, UsageError } from "../../error.ts";
import { readJsonObject } from "../../http/mod.ts";
import type { JobStatus, Printer } from "../../printer/printer.ts";
import { requirePermission } from "../auth/mod.ts";
import { STATE_TEXT } from "./state_text.ts";

/** `GET /api/job`'s body for a job. */
export function jobBody(job: JobStatus) {
  const { progress, file } = job;
  const estimated = progress.printTime !== null && progress.printTimeLeft !== null
    ? progress.printTime + progress.printTimeLeft
    : null;
  return {
    job: {
      file: file
        ? { name: file.name, path: file.name, size: file.size, origin: file.origin }
        : { name: null, path: null, size: null, origin: null },
      estimatedPrintTime: estimated,
    },
    progress: {
      completion: progress.completion,
      filepos: progress.filepos,
      lines: progress.lines,
      printTime: progress.printTime,
      printTimeLeft: progress.printTimeLeft,
    },
    state: STATE_TEXT[job.state],
  };
}

/** Starts the selected file: refused unless the printer is operational with a file selected. */
async function start(printer: Printer): Promise<void> {
  const job = printer.job();
  if (job.state !== "OPERATIONAL") {
    throw new ConflictError(`Cannot start a print: the printer is ${STATE_TEXT[job.state]}`, {
      code: "invalid_transition",
    });
  }
  if (job.file?.origin !== "local") {
    throw new ConflictError("Cannot start a print: no file is selected", { code: "no_file" });
  }
  await printer.startJob(job.file.name);
}

/** The pause command's action (`toggle` by default) as the printer's call. */
async function pause(printer: Printer, action: unknown): Promise<void> {
  const state = printer.job().state;
  switch (action ?? "toggle") {
    case "pause":
      return await printer.pauseJob();
    case "resume":
      return await printer.resumeJob();
    case "toggle":
      if (state === "PRINTING") return await printer.pauseJob();
      if (state === "PAUSED") return await printer.resumeJob();
      throw new ConflictError(`Cannot pause or resume: the printer is ${STATE_TEXT[state]}`, {
        code: "invalid_transition",
      });
    default:
      throw new UsageError(`Unknown action '${String(action)}': pause, resume or toggle`);
  }
}

/** The job sub-app (mount at `/api`). */
export function jobRoutes(printer: Printer): Hono {
  const app = new Hono();
  app.get("/job", requirePermission("STATUS"), (c) => c.json(jobBody(printer.job())));
  app.post("/job", requirePermission("CONTROL"), async (c) => {
    const body = await readJsonObject(c);
    switch (body.command) {
      case "start":
        await start(printer);
        break;
      case "cancel":
        await printer.cancelJob();
        break;
      case "restart":
        await printer.restartJob();
        break;
      case "pause":
        await pause(printer, body.action);
        break;
      default:
        throw new UsageError(
          `Unknown command '${String(body.command)}': start, cancel, restart or pause`,
        );
    }
    return c.body(null, 204);
  });
  return app;
}
