/**
 * The plugins the host serves (`deno task host`, and `deno task webapp` unless `--no-plugins`).
 *
 * @module
 */
import type { PluginDescriptor } from "../lib/host/mod.ts";
import { plugin as branchplus } from "./branchplus/mod.ts";
import { plugin as hostUptime } from "./host_uptime/mod.ts";
import { plugin as logmonitor } from "./logmonitor/mod.ts";
import { plugin as tempEta } from "./temp_eta/mod.ts";

/** Every hosted plugin, in load order. */
export const plugins: PluginDescriptor[] = [logmonitor, hostUptime, branchplus, tempEta];
