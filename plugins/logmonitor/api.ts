/**
 * The log monitor's routes under `/plugin/<id>`: thin handlers over files, search,
 * export, streams, alerts and the debug endpoints.
 *
 * @module
 */
import { Hono } from "hono";
import { ForbiddenError, RateLimitedError } from "../../lib/error.ts";
import { attachment, clientAddress, MAX_REQUEST_BODY, readJsonObject } from "../../lib/http/mod.ts";
import { formatLogTime } from "../../lib/log.ts";
import type { Permission } from "../../lib/host/mod.ts";
import { assertMayReadLog, permissionsOf, readableLogs } from "./access.ts";
import { DEBUG_TEST_MARKER } from "./alerts.ts";
import { PLUGIN_ID } from "./id.ts";
import { renderExport } from "./export.ts";
import { assertSearchable, listLogFiles, openLogFile } from "./files.ts";
import { LEVELS, parseLine } from "./parse.ts";
import type { LogMonitorRuntime } from "./runtime.ts";
import { parseSearchParams, searchFile } from "./search.ts";
import { join } from "node:path";

/** Paths below the base that change state (CONTROL); every other request only views (STATUS). */
const CHANGING = new Set([
  "/alerts/reset",
  "/alert-history/clear",
  "/debug/frontend",
  "/debug/test-entries",
]);

/**
 * The permission a log monitor request needs: viewing (files, search, download, export, live
 * tail) needs STATUS, changing (alert reset, history clear, debug) needs CONTROL. Reading an
 * ADMIN-only log (`errors.log`) needs ADMIN on top (`./access.ts`, checked by the handlers).
 */
export function logMonitorPermission(_method: string, path: string): Permission {
  return CHANGING.has(path.replace(/\/+$/, "")) ? "CONTROL" : "STATUS";
}

/** Builds the Hono app of the log monitor. */
export function logMonitorApp(rt: LogMonitorRuntime): Hono {
  const { ctx } = rt;
  const app = new Hono();

  app.get("/files", async (c) => {
    const files = await listLogFiles(ctx.logDir);
    if (files === null) return c.json({ files: [], error: "Log directory not found" });
    return c.json({ files: readableLogs(permissionsOf(c), files) });
  });

  app.get("/download/:filename{.+}", async (c) => {
    const file = await openLogFile(ctx.logDir, c.req.param("filename"), {
      logger: ctx.logger,
      notFound: "File not found",
    });
    try {
      assertMayReadLog(permissionsOf(c), file);
    } catch (err) {
      file.file.close();
      throw err;
    }
    return c.body(file.file.readable, 200, {
      "Content-Type": "text/plain; charset=utf-8",
      "Content-Disposition": attachment(file.name),
      "Content-Length": String(file.size),
    });
  });

  app.get("/search", async (c) => {
    const client = clientAddress(c);
    // One budget per address and one per account: 127.0.0.x aliases share the account's.
    const keys = [`address:${client}`, `account:${c.get("principal")?.user ?? ""}`];
    if (!rt.limiter.attemptAll(keys)) {
      // INFO: the limit doing its job is no alert (a WARNING would raise the monitor's own counts).
      ctx.logger.info(`[SECURITY] rate_limit_exceeded: client=${client}`);
      throw new RateLimitedError("Too many requests. Please slow down.", {
        code: "rate_limited",
        retryAfterSeconds: Math.max(1, rt.limiter.retryAfterMsAll(keys) / 1000),
      });
    }
    const s = rt.settings();
    const q = (k: string) => c.req.query(k);
    const params = parseSearchParams({
      query: q("query"),
      levels: c.req.queries("levels") ?? [],
      offset: q("offset"),
      limit: q("limit"),
      case_sensitive: q("case_sensitive"),
      use_regex: q("use_regex"),
    }, s.search_page_size);
    if (params.useRegex && !s.regex_search_enabled) {
      throw new ForbiddenError(
        "Regular-expression search is disabled (setting regex_search_enabled)",
        { code: "regex_disabled" },
      );
    }
    const opened = await openLogFile(ctx.logDir, q("file") ?? s.default_log_file, {
      logger: ctx.logger,
    });
    try {
      assertMayReadLog(permissionsOf(c), opened);
      assertSearchable(opened, "Log file is too large to process");
      return c.json(await searchFile(opened.file, params, rt.searchOptions));
    } finally {
      opened.file.close();
    }
  });

  app.post("/export", async (c) => {
    // Up to 1000 entries of whole log lines: the one route allowed the servers' full cap.
    const body = await readJsonObject(c, { maxBytes: MAX_REQUEST_BODY });
    const file = renderExport(body.results, body.format);
    return c.body(file.body, 200, {
      "Content-Type": file.contentType,
      "Content-Disposition": attachment(file.filename),
    });
  });

  app.post("/stream/start", async (c) => {
    const body = await readJsonObject(c);
    const may = (file: { name: string; path: string }) => assertMayReadLog(permissionsOf(c), file);
    return c.json(await rt.streams.startSingle(body.file ?? rt.settings().default_log_file, may));
  });
  app.post("/stream/stop", async (c) => c.json(await rt.streams.stopSingle()));
  app.post("/stream/multi/start", async (c) => {
    const body = await readJsonObject(c);
    const may = (file: { name: string; path: string }) => assertMayReadLog(permissionsOf(c), file);
    return c.json(await rt.streams.startMulti(body.files, may));
  });
  app.post("/stream/multi/stop", async (c) => {
    const body = await readJsonObject(c);
    return c.json(await rt.streams.stopMulti(body.files ?? [], body.stop_all === true));
  });
  app.get("/multi-stream", (c) => {
    const active = rt.streams.activeMulti();
    return c.json({ active_streams: active, count: active.length });
  });

  app.get("/alerts", (c) => c.json({ counts: rt.alerts.counts() }));
  app.post("/alerts/reset", (c) => {
    rt.alerts.reset();
    return c.json({ status: "reset" });
  });
  app.get("/alert-history", (c) => c.json(rt.alerts.history(c.req.query("limit"))));
  app.post("/alert-history/clear", (c) => {
    rt.alerts.clearHistory();
    return c.json({ status: "cleared" });
  });
  app.get("/alerts/monitor/status", (c) => c.json(rt.alerts.status()));

  app.post("/debug/frontend", async (c) => {
    if (!rt.settings().debug_mode) throw new ForbiddenError("Debug mode is disabled");
    const body = await readJsonObject(c);
    // The host's logger writes it on one line (lib/log.ts sanitizeLogText).
    const raw = typeof body.message === "string" ? body.message.trim() : "";
    const message = (raw === "" ? "Frontend debug event" : raw).slice(0, 300);
    const payload = JSON.stringify(body.payload ?? null).slice(0, 2000);
    ctx.logger.info(`Frontend debug from ${clientAddress(c)}: ${message} ${payload}`);
    return c.json({ status: "logged" });
  });
  app.post("/debug/test-entries", async (c) => {
    const s = rt.settings();
    if (!s.debug_mode) throw new ForbiddenError("Debug mode is disabled");
    const file = join(ctx.logDir, s.default_log_file);
    const now = formatLogTime(new Date(ctx.clock.now()));
    const lines = LEVELS.map((level) =>
      `${now} - localbench.host.plugins.${PLUGIN_ID} - ${level} - ${DEBUG_TEST_MARKER} [${level}] Test entry`
    );
    await Deno.writeTextFile(file, lines.join("\n") + "\n", { append: true });
    for (const line of lines) rt.alerts.record(parseLine(line), s.default_log_file, true);
    return c.json({ status: "logged", entries: lines.length });
  });

  return app;
}
