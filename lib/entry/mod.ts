/**
 * The entry script (`main.ts`) logic.
 *
 * @module
 */
export { type EntryArgs, expandClusters, parseEntryArgs } from "./args.ts";
export { BENCH_TRAY_URL, ENTRY_HELP, runEntry } from "./entry.ts";
export { type LaunchPlan, planLaunch } from "./launch.ts";
export type { EntryDeps, TrayHandle } from "./entry.ts";
export { hasDesktop, PROGRAM_PERMISSIONS, systemEntryDeps, TRAY_PERMISSIONS } from "./system.ts";
