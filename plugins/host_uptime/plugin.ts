/**
 * The uptime plugin's descriptor (re-exported by `./mod.ts`, the folder's surface).
 *
 * @module
 */
import { Hono } from "hono";
import type { PluginContext, PluginDescriptor } from "../../lib/host/mod.ts";
import { API_BASE } from "./widget.ts";
import { PLUGIN_ID } from "./id.ts";
import { noteLanguage, uptimePayload } from "./payload.ts";
import { UPTIME_SCHEMA, type UptimeSettings } from "./settings.ts";
import {
  hostUptimeSeconds,
  type ProcReader,
  readProcUptime,
  systemUptimeSeconds,
} from "./source.ts";

export { DISPLAY_FORMATS, type DisplayFormat, formatUptime, type UptimeTexts } from "./format.ts";
export { UNAVAILABLE_NOTES, uptimePayload } from "./payload.ts";
export { UPTIME_DEFAULTS, UPTIME_SCHEMA, type UptimeSettings } from "./settings.ts";
export { systemUptimeSeconds } from "./source.ts";

/** Options of {@linkcode createUptimePlugin}. */
export interface UptimePluginOptions {
  /** Reader of `/proc/uptime`. @default Deno.readTextFile("/proc/uptime") */
  readProc?: ProcReader;
  /**
   * Start time of the host in ms since the epoch. @default the service's start
   * (`ctx.serviceStartedAt`: the launcher's, kept across the host's restarts), else the context
   * clock at creation of the routes
   */
  startedAt?: number;
}

/** Creates the uptime plugin descriptor. */
export function createUptimePlugin(
  options: UptimePluginOptions = {},
): PluginDescriptor<UptimeSettings> {
  const readProc = options.readProc ?? readProcUptime;
  return {
    id: PLUGIN_ID,
    name: "Uptime",
    version: "1.0.0",
    settingsVersion: 1,
    settingsSchema: UPTIME_SCHEMA,
    ui: { navbar: ["UptimeWidget"] },
    // The permission-scoped host cannot read /proc (Deno wants --allow-all): the same counter.
    systemInfo: ["osUptime"],
    create(ctx: PluginContext<UptimeSettings>) {
      const startedAt = options.startedAt ?? ctx.serviceStartedAt ?? ctx.clock.now();
      let lastDebug = -Infinity;
      const app = new Hono();
      app.get("/", async (c) => {
        const settings = ctx.settings.get();
        const now = ctx.clock.now();
        const payload = uptimePayload({
          systemSeconds: await systemUptimeSeconds(readProc),
          hostSeconds: hostUptimeSeconds(startedAt, now),
          settings,
          lang: noteLanguage(c.req.header("Accept-Language")),
          now,
        });
        if (settings.debug && now - lastDebug >= settings.debug_throttle_seconds * 1000) {
          lastDebug = now;
          ctx.logger.debug(`Uptime request: ${JSON.stringify(payload)}`);
        }
        return c.json(payload);
      });
      return { routes: [{ base: API_BASE, app }] };
    },
  };
}

/** The uptime plugin as registered by the host. */
export const plugin: PluginDescriptor<UptimeSettings> = createUptimePlugin();
export {
  compactToggleMs,
  ERROR_RETRY_MS,
  isCompact,
  nextPollMs,
  type UptimeView,
  type WidgetState,
  widgetState,
} from "./widget.ts";
