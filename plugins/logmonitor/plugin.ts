/**
 * The log monitor's descriptor (re-exported by `./mod.ts`, the folder's surface).
 *
 * @module
 */
import type { PluginContext, PluginDescriptor, PluginInstance } from "../../lib/host/mod.ts";
import { API_BASE } from "./browser_api.ts";
import { PLUGIN_ID } from "./id.ts";
import { logMonitorApp, logMonitorPermission } from "./api.ts";
import { createRuntime, type LogMonitorOptions, type LogMonitorRuntime } from "./runtime.ts";
import { LOGMONITOR_SCHEMA, type LogMonitorSettings } from "./settings.ts";
import { re2PackageDir } from "./re2_worker.ts";

export { type Level, LEVELS, type ParsedLine, parseLine } from "./parse.ts";
export { isValidLogName, MAX_FILE_BYTES, resolveLogFile } from "./files.ts";
export { parseSearchParams, searchFile, type SearchParams, type SearchResult } from "./search.ts";
export { renderExport } from "./export.ts";
export { isAdminOnlyLog, mayReadLog, readableLogs } from "./access.ts";
export { LOGMONITOR_DEFAULTS, LOGMONITOR_SCHEMA, type LogMonitorSettings } from "./settings.ts";
export type { LogMonitorOptions, LogMonitorRuntime } from "./runtime.ts";

/** One run of the plugin: its runtime (streams, alerts, search), routes and lifecycle. */
export interface LogMonitorInstance extends PluginInstance {
  runtime: LogMonitorRuntime;
}

/** Creates the log monitor descriptor (tests pass poll timings and file system doubles). */
export function createLogMonitorPlugin(
  options: LogMonitorOptions = {},
): PluginDescriptor<LogMonitorSettings, LogMonitorInstance> {
  return {
    id: PLUGIN_ID,
    name: "Log Monitor",
    version: "1.0.0",
    settingsVersion: 1,
    settingsSchema: LOGMONITOR_SCHEMA,
    ui: { nav: "Logs", formerPaths: ["/plugins/logs"] },
    // Regex search loads RE2 (its code and re2.wasm) from the package's folder at run time.
    readPaths: [re2PackageDir()].filter((d): d is string => d !== null),
    create(ctx) {
      const rt = createRuntime(ctx, options);
      let unsubscribe = () => {};
      return {
        runtime: rt,
        routes: [{
          base: API_BASE,
          app: logMonitorApp(rt),
          permissionFor: logMonitorPermission,
        }],
        async start() {
          await rt.alerts.rebuild();
          if (ctx.resumed) await resume(ctx, rt);
          unsubscribe = ctx.settings.onChange(() => {
            rt.alerts.rebuild().catch((err) =>
              ctx.logger.error(`Alert monitor rebuild failed: ${err}`)
            );
          });
          if (rt.settings().auto_start_streaming) {
            await rt.streams.startSingle(rt.settings().default_log_file).catch((err) =>
              ctx.logger.info(
                `Auto-start streaming skipped: ${err instanceof Error ? err.message : err}`,
              )
            );
          }
        },
        async stop(info) {
          unsubscribe();
          if (info.planned) {
            // A planned restart: the next run carries on with the same streams and alerts.
            ctx.handover?.set({
              single: rt.streams.activeSingle(),
              multi: rt.streams.activeMulti(),
              alerts: rt.alerts.snapshot(),
            });
          }
          await rt.streams.stopAll();
          await rt.alerts.stop();
          rt.feed?.close();
        },
      };
    },
  };
}

/** Takes the streams and alerts of the run before a planned restart back. */
async function resume(ctx: PluginContext, rt: LogMonitorRuntime): Promise<void> {
  const state = ctx.handover?.get() as
    | { single?: unknown; multi?: unknown; alerts?: unknown }
    | undefined;
  if (!state || typeof state !== "object") return;
  rt.alerts.restore(state.alerts);
  if (typeof state.single === "string") {
    await rt.streams.startSingle(state.single).catch((err) =>
      ctx.logger.info(`Stream of ${state.single} not resumed: ${err}`)
    );
  }
  if (Array.isArray(state.multi) && state.multi.length > 0) {
    await rt.streams.startMulti(state.multi).catch((err) =>
      ctx.logger.info(`Multi-streams not resumed: ${err}`)
    );
  }
}

/** The log monitor as registered by the host. */
export const plugin: PluginDescriptor<LogMonitorSettings, LogMonitorInstance> =
  createLogMonitorPlugin();
