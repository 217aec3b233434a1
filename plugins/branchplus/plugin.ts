/**
 * The branch power controller's descriptor (re-exported by `./mod.ts`, the folder's surface).
 *
 * @module
 */
import type { PluginDescriptor, PluginInstance } from "../../lib/host/mod.ts";
import { BranchController } from "./controller.ts";
import { branchRoutes } from "./api.ts";
import { systemClock } from "../../lib/clock.ts";
import { createLogger } from "../../lib/log.ts";
import { applyFailsafeWhileDown, hostDownDelay } from "./host_down.ts";
import { PLUGIN_ID } from "./id.ts";
import { probeHub } from "./probe.ts";
import {
  BRANCH_SCHEMA,
  type BranchSettings,
  hubNetTarget,
  mergeBranchUpdate,
  SETTINGS_VERSION,
} from "./settings.ts";

export { BranchController } from "./controller.ts";
export type { BranchStatus } from "./controller.ts";
export { API_BASE } from "./panel_client.ts";
export type { BranchSettings } from "./settings.ts";

/** One run of the plugin: its controller, routes and lifecycle. */
export interface BranchInstance extends PluginInstance {
  controller: BranchController;
}

/** The plugin descriptor the host loads. */
export const plugin: PluginDescriptor<BranchSettings, BranchInstance> = {
  id: PLUGIN_ID,
  name: "Branch power controller",
  version: "0.1.0",
  settingsVersion: SETTINGS_VERSION,
  settingsSchema: BRANCH_SCHEMA,
  mergeSettingsUpdate: mergeBranchUpdate,
  ui: { nav: "Power", formerPaths: ["/plugins/power"] },
  networkHosts({ host, port }) {
    return host ? [hubNetTarget(host, port)] : [];
  },
  probes: {
    // Run by the launcher (real clock) for test_connection on an address not yet in the scope.
    hub: (args) =>
      probeHub({
        host: String(args.host),
        port: Number(args.port),
        path: String(args.path),
      }, { clock: systemClock }),
  },
  // Applied by the launcher while the host is down (crashed, not back after host_down_grace).
  failsafe: {
    delaySeconds: hostDownDelay,
    apply: (settings) =>
      applyFailsafeWhileDown(settings, {
        clock: systemClock,
        logger: createLogger(`plugins.${PLUGIN_ID}.failsafe`, { level: "warn" }),
      }),
  },
  create(ctx) {
    const controller = new BranchController(ctx);
    return {
      controller,
      routes: branchRoutes(() => controller, { clock: ctx.clock, logger: ctx.logger }),
      start: () => controller.start({ resumed: ctx.resumed }),
      stop: (info) => controller.stop({ planned: info.planned }),
    };
  },
};
