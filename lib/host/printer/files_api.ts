/**
 * OctoPrint's files API over the uploads folder: list (`GET /api/files`, `/api/files/local`),
 * upload (`POST /api/files/local`, multipart `file` with optional `select` / `print`, streamed to
 * disk with the folder's cap), one file's information and bytes, delete, and select (or print).
 * Reads need STATUS; upload, select and delete CONTROL.
 *
 * @module
 */
import { type Context, Hono } from "hono";
import { ConflictError, UsageError } from "../../error.ts";
import { attachment, readJsonObject, readMultipart } from "../../http/mod.ts";
import type { Printer } from "../../printer/printer.ts";
import type { UploadInfo, UploadsFolder } from "../../printer/uploads.ts";
import { requirePermission } from "../auth/mod.ts";
import { STATE_TEXT } from "./state_text.ts";

/**
 * The upload's path: its body is capped by the route (the uploads folder's cap), so the web
 * app's own 8 MiB cap is lifted for `POST` on exactly this path (`lib/web/server.ts`).
 */
export const UPLOAD_PATH = "/api/files/local";

/** What a form may carry besides its file: fields and part headers. */
const FORM_OVERHEAD = 2 * 1024 * 1024;

function refsOf(c: Context, name: string) {
  const resource = new URL(`${UPLOAD_PATH}/${encodeURIComponent(name)}`, c.req.url).href;
  return { resource, download: `${resource}/download` };
}

/** One file as OctoPrint lists it. */
function entryOf(c: Context, file: UploadInfo) {
  return {
    name: file.name,
    display: file.name,
    path: file.name,
    type: "machinecode",
    typePath: ["machinecode", "gcode"],
    size: file.size,
    date: file.date,
    origin: "local",
    refs: refsOf(c, file.name),
  };
}

/** Selects (or prints) a stored file: only while the printer is operational and idle. */
async function select(printer: Printer, name: string, print: boolean): Promise<void> {
  const state = printer.job().state;
  if (state !== "OPERATIONAL") {
    throw new ConflictError(
      `Cannot ${print ? "print" : "select"} ${name}: the printer is ${STATE_TEXT[state]}`,
      { code: "invalid_transition" },
    );
  }
  if (print) await printer.startJob(name);
  else await printer.selectJob(name);
}

/** The files sub-app (mount at `/api`). */
export function fileRoutes(printer: Printer, uploads: UploadsFolder): Hono {
  const app = new Hono();
  const status = requirePermission("STATUS");
  const control = requirePermission("CONTROL");
  const list = async (c: Context) => {
    const files = await uploads.list();
    const space = await uploads.space();
    return c.json({
      files: files.map((file) => entryOf(c, file)),
      free: space?.free ?? null,
      total: space?.total ?? null,
    });
  };
  app.get("/files", status, list);
  app.get("/files/local", status, list);
  app.post("/files/local", control, async (c) => {
    const form = await readMultipart(c.req.raw, {
      fileField: "file",
      maxBytes: uploads.maxBytes + FORM_OVERHEAD,
      onFile: (filename, data) => uploads.store(filename, data),
    });
    if (!form.file) {
      throw new UsageError("Cannot upload: the form has no file part named 'file'", {
        code: "no_file",
      });
    }
    const { name } = form.file;
    const print = form.fields.print === "true";
    const selected = print || form.fields.select === "true";
    if (selected) {
      await select(printer, name, print).catch((err) => {
        if (!(err instanceof ConflictError)) throw err;
        throw new ConflictError(`Stored ${name}, but: ${err.message}`, { code: err.code });
      });
    }
    const refs = refsOf(c, name);
    c.header("Location", refs.resource);
    return c.json({
      done: true,
      files: { local: { name, path: name, origin: "local", refs } },
      effectiveSelect: selected,
      effectivePrint: print,
    }, 201);
  });
  app.get("/files/local/:name", status, async (c) => {
    return c.json(entryOf(c, await uploads.info(c.req.param("name"))));
  });
  app.get("/files/local/:name/download", status, async (c) => {
    const file = await uploads.open(c.req.param("name"));
    return c.body(file.readable, 200, {
      "Content-Type": "application/octet-stream",
      "Content-Length": String(file.size),
      "Content-Disposition": attachment(file.name),
    });
  });
  app.delete("/files/local/:name", control, async (c) => {
    await uploads.remove(c.req.param("name"));
    return c.body(null, 204);
  });
  app.post("/files/local/:name", control, async (c) => {
    const body = await readJsonObject(c);
    if (body.command !== "select") {
      throw new UsageError(`Unknown command '${String(body.command)}': select`);
    }
    if (body.print !== undefined && typeof body.print !== "boolean") {
      throw new UsageError("'print' must be true or false");
    }
    const { name } = await uploads.info(c.req.param("name"));
    await select(printer, name, body.print === true);
    return c.body(null, 204);
  });
  return app;
}
