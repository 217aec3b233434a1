/**
 * The tray program's real dependencies: systray2, `xdg-open`, the process environment.
 *
 * @module
 */
import { createLogger } from "../log.ts";
import { print, printError } from "../log.ts";
import { claimTray } from "./instance.ts";
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

/** Reads standard input to its end (what `--exit-with-stdin` waits for). */
export async function stdinClosed(): Promise<void> {
  try {
    for await (const _ of Deno.stdin.readable) {
      // the holder sends nothing; only the end matters
    }
  } catch {
    // closed or unreadable: ended all the same
  }
}

/** Dependencies of the tray on this machine. */
export function systemTrayDeps(): TrayDeps {
  const env = (name: string) => Deno.env.get(name);
  return {
    claim: (url) => claimTray(url, env),
    stdinClosed,
    env,
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
