/**
 * The plugins the host serves (`deno task host`, and `deno task webapp` unless `--no-plugins`):
 * one line per plugin folder, in load order (the order of their pages in the top bar).
 *
 * @module
 */
import type { PluginDescriptor } from "../lib/host/mod.ts";

/** Every hosted plugin, in load order. */
export const plugins: PluginDescriptor[] = (await Promise.all([
  import("./logmonitor/mod.ts"),
  import("./host_uptime/mod.ts"),
  import("./branchplus/mod.ts"),
  import("./temp_eta/mod.ts"),
])).map((folder) => folder.plugin);
