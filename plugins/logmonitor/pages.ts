/**
 * The typed helpers of the log monitor's pages (`routes/`): `c.var.plugin` is its instance.
 *
 * @module
 */
import { definePluginPages } from "../../lib/host/mod.ts";
import type { LogMonitorInstance } from "./mod.ts";

/** The `define` of the log monitor's pages. */
export const define = definePluginPages<LogMonitorInstance>();
