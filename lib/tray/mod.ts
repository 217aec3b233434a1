/**
 * The Linux tray controller: a pure state machine (status → icon and enabled controls), a
 * dashboard client, a poller/action controller, and a systray2 adapter.
 *
 * @module
 */
export type { TrayAdapter, TrayFactory } from "./adapter.ts";
export { DEFAULT_TRAY_URL, parseTrayArgs, TOKEN_ENV, TRAY_HELP } from "./args.ts";
export type { TrayOptions } from "./args.ts";
export { createDashboardClient } from "./dashboard_api.ts";
export type { ControlPath, DashboardClient, DashboardClientOptions } from "./dashboard_api.ts";
export { POLL_INTERVAL_MS, TrayController } from "./controller.ts";
export type { TrayControllerOptions } from "./controller.ts";
export { systemHostProbe } from "./host_probe.ts";
export type { HostProbe, HostProbeResult } from "./host_probe.ts";
export { ICON_RGB, ICON_SIZE, iconBase64, iconPng } from "./icons.ts";
export { isAction, MENU_IDS, menuOf } from "./menu.ts";
export type { MenuAction, MenuEntry, MenuId, MenuModel } from "./menu.ts";
export { encodePng } from "./png.ts";
export { runTray } from "./run.ts";
export type { TrayDeps } from "./run.ts";
export { stateOfBody, viewOf } from "./status.ts";
export type { BenchStatus, IconColor, TrayState, TrayView } from "./status.ts";
export { openInBrowser, stdinClosed, systemTrayDeps } from "./system.ts";
export { claimTray, type TrayClaim, trayLockDir, trayLockPath } from "./instance.ts";
export {
  defaultCacheDir,
  helperName,
  prepareHelper,
  SYSTRAY_VERSION,
  systrayFactory,
} from "./systray.ts";
