/**
 * The log monitor plugin (`logmonitor`): lists, downloads, searches and exports the host's
 * `.log` files, streams new lines over the push socket and counts severity alerts.
 *
 * @module
 */
import type { PluginContext, PluginDescriptor } from "../../lib/host/plugin.ts";
import { logMonitorApp, logMonitorPermission } from "./routes.ts";
import { createRuntime, type LogMonitorOptions, type LogMonitorRuntime } from "./runtime.ts";
import { LOGMONITOR_DEFAULTS, validateLogMonitorSettings } from "./settings.ts";

export { type Level, LEVELS, type ParsedLine, parseLine } from "./parse.ts";
export { isValidLogName, MAX_FILE_BYTES, resolveLogFile } from "./files.ts";
export { parseSearchParams, searchFile, type SearchParams, type SearchResult } from "./search.ts";
export { renderExport } from "./export.ts";
export {
  LOGMONITOR_DEFAULTS,
  type LogMonitorSettings,
  validateLogMonitorSettings,
} from "./settings.ts";
export type { LogMonitorOptions, LogMonitorRuntime } from "./runtime.ts";

/**
 * Creates the log monitor descriptor. `runtimes` gives tests access to the runtime of a
 * context.
 */
export function createLogMonitorPlugin(
  options: LogMonitorOptions = {},
): PluginDescriptor & { runtimeOf(ctx: PluginContext): LogMonitorRuntime } {
  const runtimes = new Map<PluginContext, LogMonitorRuntime>();
  const runtimeOf = (ctx: PluginContext) => {
    let rt = runtimes.get(ctx);
    if (!rt) {
      rt = createRuntime(ctx, options);
      runtimes.set(ctx, rt);
    }
    return rt;
  };
  const unsubscribes = new Map<PluginContext, () => void>();
  return {
    id: "logmonitor",
    name: "Log Monitor",
    version: "1.0.0",
    settingsVersion: 1,
    settingsDefaults: structuredClone(LOGMONITOR_DEFAULTS) as unknown as Record<string, unknown>,
    validateSettings: validateLogMonitorSettings,
    runtimeOf,
    routes: (ctx) => [{
      base: "/plugin/logmonitor",
      app: logMonitorApp(runtimeOf(ctx)),
      permissionFor: logMonitorPermission,
    }],
    async onStartup(ctx) {
      const rt = runtimeOf(ctx);
      await rt.alerts.rebuild();
      if (ctx.resumed) await resume(ctx, rt);
      unsubscribes.set(
        ctx,
        ctx.settings.onChange(() => {
          rt.alerts.rebuild().catch((err) =>
            ctx.logger.error(`Alert monitor rebuild failed: ${err}`)
          );
        }),
      );
      if (rt.settings().auto_start_streaming) {
        await rt.streams.startSingle(rt.settings().default_log_file).catch((err) =>
          ctx.logger.info(
            `Auto-start streaming skipped: ${err instanceof Error ? err.message : err}`,
          )
        );
      }
    },
    async onShutdown(ctx, info) {
      const rt = runtimes.get(ctx);
      unsubscribes.get(ctx)?.();
      unsubscribes.delete(ctx);
      if (!rt) return;
      if (info?.planned) {
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
      runtimes.delete(ctx);
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
export const plugin: PluginDescriptor = createLogMonitorPlugin();
