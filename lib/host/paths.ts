/**
 * Where the plugin host keeps its files, from the environment (injected, never read here).
 *
 * @module
 */
import { join } from "node:path";

/** The folders of the plugin host. */
export interface HostPaths {
  /** The localbench data folder (`$LOCALBENCH_DATA_DIR` or `$XDG_DATA_HOME/localbench`). */
  dataDir: string;
  /** The localbench config folder (`$LOCALBENCH_CONFIG_DIR` or `$XDG_CONFIG_HOME/localbench`). */
  configDir: string;
  /** The host's own folder: `<dataDir>/host` (config.yaml, plugin data). */
  hostDir: string;
  /** The host's config file: `<hostDir>/config.yaml`. */
  configFile: string;
  /** The plugins' restricted settings (passwords), mode 0600: `<hostDir>/secrets.yaml`. */
  secretsFile: string;
  /** The log folder (default `<hostDir>/logs`). */
  logDir: string;
  /** The G-code files users uploaded: `<hostDir>/uploads`. */
  uploadsDir: string;
  /** The printer process's socket (`deno task host`): `<hostDir>/run/printer.sock`. */
  printerSocket: string;
}

/** Environment variable names the host reads. */
export const HOST_ENV_VARS = [
  "LOCALBENCH_DATA_DIR",
  "LOCALBENCH_CONFIG_DIR",
  "LOCALBENCH_LOG_DIR",
  "XDG_DATA_HOME",
  "XDG_CONFIG_HOME",
  "HOME",
] as const;

/** Overrides of {@linkcode resolveHostPaths}. */
export interface HostPathOverrides {
  dataDir?: string;
  configDir?: string;
  logDir?: string;
}

/**
 * Resolves the host's folders: explicit overrides first, then the environment, then XDG defaults.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveHostPaths } from "./paths.ts";
 * const p = resolveHostPaths({ HOME: "/home/a" });
 * assert.equal(p.logDir, "/home/a/.local/share/localbench/host/logs");
 * ```
 */
export function resolveHostPaths(
  env: Record<string, string | undefined>,
  overrides: HostPathOverrides = {},
): HostPaths {
  const home = env.HOME ?? "/tmp";
  const dataDir = overrides.dataDir ?? nonEmpty(env.LOCALBENCH_DATA_DIR) ??
    join(nonEmpty(env.XDG_DATA_HOME) ?? join(home, ".local", "share"), "localbench");
  const configDir = overrides.configDir ?? nonEmpty(env.LOCALBENCH_CONFIG_DIR) ??
    join(nonEmpty(env.XDG_CONFIG_HOME) ?? join(home, ".config"), "localbench");
  const hostDir = join(dataDir, "host");
  const logDir = overrides.logDir ?? nonEmpty(env.LOCALBENCH_LOG_DIR) ?? join(hostDir, "logs");
  return {
    dataDir,
    configDir,
    hostDir,
    configFile: join(hostDir, "config.yaml"),
    secretsFile: join(hostDir, "secrets.yaml"),
    logDir,
    uploadsDir: join(hostDir, "uploads"),
    printerSocket: join(hostDir, "run", "printer.sock"),
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}
