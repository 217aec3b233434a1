/**
 * The tray program's real dependencies: systray2, `xdg-open`, the process environment.
 *
 * @module
 */
import { createLogger } from "../log.ts";
import { print, printError } from "../log.ts";
import type { TrayDeps } from "./run.ts";
import { systrayFactory } from "./systray.ts";

/** Opens `url` with the desktop's opener (`xdg-open`, `open` on macOS), detached. */
export function openInBrowser(url: string): Promise<void> {
  const opener = Deno.build.os === "darwin" ? "open" : "xdg-open";
  const child = new Deno.Command(opener, {
    args: [url],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  child.unref();
  return Promise.resolve();
}

/** Dependencies of the tray on this machine. */
export function systemTrayDeps(): TrayDeps {
  return {
    env: (name) => Deno.env.get(name),
    factory: (opts) =>
      systrayFactory({
        timeoutMs: opts.timeoutMs,
        log: createLogger("localbench.tray", { level: opts.debug ? "debug" : "info" }),
      }),
    openUrl: openInBrowser,
    out: print,
    err: printError,
  };
}
