/**
 * The real tray icon, through systray2 and its Go helper. The helper ships without a run bit,
 * so it is copied into a cache folder (`<cache>/<version>/`) with mode 0755 and systray2 is told
 * to use that copy (`copyDir`). Before starting it waits for a display and a tray host, and it
 * gives the helper a bounded time to report ready: on a timeout the helper is killed and an
 * `AppError` explains why, so the tray never hangs.
 *
 * @module
 */
import { exists } from "../fs.ts";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { sleep } from "../clock.ts";
import { messageOf, UnavailableError } from "../error.ts";
import { createLogger, type Logger } from "../log.ts";
import type { TrayAdapter, TrayFactory } from "./adapter.ts";
import { type HostProbe, systemHostProbe } from "./host_probe.ts";
import { iconBase64 } from "./icons.ts";
import { wrapSystray } from "./systray_wrap.ts";
import type { SysTrayInstance } from "./systray_wrap.ts";

/** The systray2 version of the import map (its helper is cached under this name). */
export const SYSTRAY_VERSION = "2.1.4";

/** Options of {@linkcode systrayFactory}. */
export interface SystrayOptions {
  /** Milliseconds to wait for a display and tray host, and again for the helper. @default 10000 */
  timeoutMs?: number;
  /** Folder for the helper copy. @default `$XDG_CACHE_HOME/localbench/tray` (or `~/.cache/…`) */
  cacheDir?: string;
  /** Desktop probe. @default systemHostProbe() */
  probe?: HostProbe;
  /** Logger. @default createLogger("localbench.tray") */
  log?: Logger;
}

/** File name of the helper on this platform. */
export function helperName(os: typeof Deno.build.os = Deno.build.os): string {
  if (os === "windows") return "tray_windows_release.exe";
  return os === "darwin" ? "tray_darwin_release" : "tray_linux_release";
}

/** The default cache folder of the helper copy. */
export function defaultCacheDir(env: (name: string) => string | undefined): string {
  const base = env("XDG_CACHE_HOME") || join(env("HOME") ?? ".", ".cache");
  return join(base, "localbench", "tray");
}

/**
 * Copies systray2's helper to `<cacheDir>/<version>/` with a run bit (when the package can be
 * found from here) and makes sure an existing copy is executable. Returns the copy's path.
 */
export async function prepareHelper(cacheDir: string): Promise<string> {
  const dst = join(cacheDir, SYSTRAY_VERSION, helperName());
  if (!(await exists(dst))) {
    let src: string | null = null;
    try {
      const pkg = createRequire(import.meta.url).resolve("systray2/package.json");
      src = join(dirname(pkg), "traybin", helperName());
    } catch {
      src = null; // outside the project: systray2 copies the helper itself; chmod follows
    }
    if (src) {
      await Deno.mkdir(dirname(dst), { recursive: true });
      await Deno.copyFile(src, dst);
    }
  }
  if (await exists(dst)) await Deno.chmod(dst, 0o755);
  return dst;
}

async function waitForHost(probe: HostProbe, timeoutMs: number, log: Logger): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 0;; attempt++) {
    const result = await probe();
    if (result === "ok" || result === "unknown") return;
    if (result === "no-display" || Date.now() >= deadline) {
      const why = result === "no-display"
        ? "no display (DISPLAY/WAYLAND_DISPLAY unset or unreachable)"
        : `no tray host (system tray or StatusNotifierWatcher) within ${timeoutMs / 1000} s`;
      throw new UnavailableError(`Cannot show the tray: ${why}`);
    }
    if (attempt === 0) log.info(`Waiting up to ${timeoutMs / 1000} s for a tray host`);
    await sleep(250);
  }
}

/** A {@linkcode TrayFactory} that shows the icon through systray2. */
export function systrayFactory(options: SystrayOptions = {}): TrayFactory {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const log = options.log ?? createLogger("localbench.tray");
  const env = (n: string) => Deno.env.get(n);
  return async (menu) => {
    await waitForHost(options.probe ?? systemHostProbe(env), timeoutMs, log);
    const cacheDir = options.cacheDir ?? defaultCacheDir(env);
    const helper = await prepareHelper(cacheDir);
    let tray: SysTrayInstance;
    try {
      tray = await wrapSystray(menu, { copyDir: cacheDir, timeoutMs, iconOf: iconBase64 });
    } catch (err) {
      if (!/EACCES/.test(messageOf(err))) throw err;
      log.debug(`Helper not executable, fixing ${helper}`);
      await Deno.chmod(helper, 0o755); // systray2 made the copy itself (outside the project)
      tray = await wrapSystray(menu, { copyDir: cacheDir, timeoutMs, iconOf: iconBase64 });
    }
    log.info(`Tray helper started (pid ${tray.pid})`);
    return tray satisfies TrayAdapter;
  };
}
