/**
 * After settings are saved, checks whether the permission-scoped host may reach every network
 * destination and read every file the plugins now need. When it may not and a launcher
 * supervises it, the host announces that it is re-applying (settings response and a `host` push
 * message `reapplying`) and asks the launcher for a restart under the wider scope; the launcher
 * derives that scope from config.yaml itself.
 *
 * @module
 */
import type { Logger } from "../log.ts";
import type { PluginDescriptor } from "./plugin.ts";
import type { PushHub } from "./push/mod.ts";
import type { SettingsStore } from "./settings/mod.ts";
import type { ProbeRequest } from "./supervise/link.ts";

/** What the launcher told the host about its scope, and how to reach the launcher. */
export interface ScopeControl {
  /**
   * The files the launcher considered at this start: the path a plugin named → the real path it
   * granted (links resolved), or null when it refused it (missing, not a regular file).
   */
  files?: Record<string, string | null>;
  /** Asks the launcher for a restart under the saved settings' scope (absent: no launcher). */
  restart?(reason: string): void;
  /** Runs a plugin's probe through the launcher (absent: no launcher). */
  probe?(request: ProbeRequest): Promise<Record<string, unknown>>;
}

/** Destinations and files the saved settings need that this process may not use. */
export interface MissingScope {
  net: string[];
  read: string[];
}

/** Delay between the settings response and the restart, so the response is sent first. */
export const RESTART_DELAY_MS = 150;

function granted(descriptor: Deno.PermissionDescriptor): boolean {
  return Deno.permissions.querySync(descriptor).state === "granted";
}

/**
 * Whether this process may connect to `target` (`host:port`). A plugin checks it before it
 * connects, so that a destination the host is being restarted for is not tried (and Deno's
 * permission text never reaches the log).
 */
export function mayConnect(target: string): boolean {
  return granted({ name: "net", host: target });
}

/** The destinations and files the plugins' current settings need that are not granted. */
export function missingScope(
  plugins: PluginDescriptor[],
  settings: SettingsStore,
  files: Record<string, string | null> = {},
): MissingScope {
  const net = new Set<string>();
  const read = new Set<string>();
  for (const p of plugins) {
    const values = settings.get(p.id);
    for (const host of p.networkHosts?.(values) ?? []) {
      if (!mayConnect(host)) net.add(host);
    }
    for (const path of p.readFiles?.(values) ?? []) {
      if (!(path in files) && !granted({ name: "read", path })) read.add(path);
    }
  }
  return { net: [...net], read: [...read] };
}

/** Options of {@linkcode ScopeWatch}. */
export interface ScopeWatchOptions {
  plugins: PluginDescriptor[];
  settings: SettingsStore;
  push: PushHub;
  logger: Logger;
  control?: ScopeControl;
}

/** Checks the scope after each save and asks for the restart. */
export class ScopeWatch {
  readonly #o: ScopeWatchOptions;
  #restarting = false;

  constructor(options: ScopeWatchOptions) {
    this.#o = options;
  }

  /** Whether a restart was requested. */
  get restarting(): boolean {
    return this.#restarting;
  }

  /** Runs after a save; returns the fields the settings response adds. */
  afterSave(): Record<string, unknown> {
    const { plugins, settings, push, logger, control } = this.#o;
    const missing = missingScope(plugins, settings, control?.files);
    if (missing.net.length === 0 && missing.read.length === 0) {
      return this.#restarting ? { reapplying: true } : {};
    }
    const what = [...missing.net, ...missing.read].join(", ");
    if (!control?.restart) {
      logger.warn(`The new settings need ${what}: restart the host to apply them`);
      return { reapplying: false, restart_needed: true, needs: missing };
    }
    if (!this.#restarting) {
      this.#restarting = true;
      logger.info(`The new settings need ${what}: the host restarts under the wider scope`);
      push.send("host", { type: "reapplying", needs: missing });
      const restart = control.restart;
      setTimeout(() => restart(`the settings need ${what}`), RESTART_DELAY_MS);
    }
    return { reapplying: true, needs: missing };
  }
}
