/**
 * A host with the log monitor in a temp folder, a fast poll interval and a push observer.
 *
 * @module
 */
import { createLogMonitorPlugin, type LogMonitorOptions } from "../../../plugins/logmonitor/mod.ts";
import { startTestHost, type TestHost } from "../../lib/host/_helpers.ts";
import type { HostOptions } from "../../../lib/host/mod.ts";

/** A test host with the log monitor. */
export interface LogHost extends TestHost {
  logDir: string;
  pushed: { plugin: string; data: Record<string, unknown> }[];
  write(name: string, text: string, append?: boolean): Promise<void>;
  plugin: ReturnType<typeof createLogMonitorPlugin>;
}

/** Starts a host whose log folder holds `files`. */
export async function startLogHost(
  files: Record<string, string> = {},
  options: Partial<HostOptions> = {},
  pluginOptions: LogMonitorOptions = {},
): Promise<LogHost> {
  const plugin = createLogMonitorPlugin({ pollMs: 25, ...pluginOptions });
  const t = await startTestHost({ plugins: [plugin], ...options });
  const logDir = t.host.paths.logDir;
  for (const [name, text] of Object.entries(files)) {
    await Deno.writeTextFile(`${logDir}/${name}`, text);
  }
  const pushed: LogHost["pushed"] = [];
  t.host.push.observe((plugin, data) => pushed.push({ plugin, data }));
  return {
    ...t,
    logDir,
    pushed,
    plugin,
    write: (name, text, append = true) => Deno.writeTextFile(`${logDir}/${name}`, text, { append }),
  };
}

/** A standard log line. */
export function logLine(level: string, message: string, logger = "test.logger"): string {
  return `2024-01-01 12:00:00,000 - ${logger} - ${level} - ${message}\n`;
}
