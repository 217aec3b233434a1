/**
 * The real implementations of the entry script's dependencies.
 *
 * @module
 */
import { join } from "node:path";
import { createLogger, print, printError } from "../log.ts";
import { findFreePort } from "../net.ts";
import type { EntryDeps } from "./entry.ts";
import { TOKEN_ENV } from "../tray/mod.ts";

/** Permission flags the entry script passes to the programs it runs (same as the deno tasks). */
export const PROGRAM_PERMISSIONS = [
  "--allow-read",
  "--allow-write",
  "--allow-net",
  "--allow-env",
  "--allow-run",
  "--allow-sys",
  "--allow-ffi",
];

/** Permission flags of the tray (the same as `deno task tray`). */
export const TRAY_PERMISSIONS = [
  "--allow-read",
  "--allow-write",
  "--allow-net",
  "--allow-env",
  "--allow-run",
  "--allow-ffi",
];

/** True when a desktop session is present (a tray can be shown). */
export function hasDesktop(
  env: (name: string) => string | undefined = (n) => Deno.env.get(n),
): boolean {
  return Boolean(env("DISPLAY") || env("WAYLAND_DISPLAY"));
}

/** Dependencies of the entry script on this machine, rooted at `root`. */
export function systemEntryDeps(root: string, benchmarkHelp: () => Promise<string>): EntryDeps {
  const log = createLogger("localbench.entry");
  const config = join(root, "deno.json");
  return {
    root,
    benchmarkHelp,
    freePort: () => findFreePort(),
    out: print,
    err: printError,
    async exists(path) {
      try {
        return (await Deno.stat(path)).isFile;
      } catch (err) {
        if (err instanceof Deno.errors.NotFound) return false;
        throw err;
      }
    },
    env: (name) => Deno.env.get(name),
    async runProgram(file, args, env = {}) {
      const child = new Deno.Command(Deno.execPath(), {
        args: ["run", ...PROGRAM_PERMISSIONS, "--config", config, file, ...args],
        env,
        stdin: "inherit",
        stdout: "inherit",
        stderr: "inherit",
      }).spawn();
      const forward = () => child.kill("SIGTERM");
      Deno.addSignalListener("SIGINT", forward);
      Deno.addSignalListener("SIGTERM", forward);
      try {
        return (await child.status).code;
      } finally {
        Deno.removeSignalListener("SIGINT", forward);
        Deno.removeSignalListener("SIGTERM", forward);
      }
    },
    startTray(url, debug, token) {
      if (!hasDesktop()) {
        log.debug("No desktop session (DISPLAY/WAYLAND_DISPLAY unset): the tray is not started");
        return null;
      }
      const tray = join(root, "tray.ts");
      try {
        Deno.statSync(tray);
        // The tray runs directly (not through `deno task`, whose extra processes would outlive a
        // stop) and this process holds its standard input: the tray ends when stop() closes it,
        // or when this process ends in any way (the pipe closes with it).
        const child = new Deno.Command(Deno.execPath(), {
          args: [
            "run",
            ...TRAY_PERMISSIONS,
            "--config",
            config,
            tray,
            "--url",
            url,
            "--exit-with-stdin",
            ...(debug ? ["--debug"] : []),
          ],
          env: token === undefined ? {} : { [TOKEN_ENV]: token },
          stdin: "piped",
          stdout: "null",
          stderr: "null",
        }).spawn();
        child.unref();
        const writer = child.stdin.getWriter();
        return { stop: () => writer.close().catch(() => undefined) };
      } catch (err) {
        log.warn(`Cannot start the tray controller: ${(err as Error).message}`);
        return null;
      }
    },
  };
}
