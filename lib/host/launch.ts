/**
 * The permission scope of the stand-alone host: which Deno flags it runs under, computed from
 * its folders, its listen address and what the plugins declare (network destinations,
 * environment variables). No subprocesses, no FFI, no system information beyond the uptime counter.
 *
 * @module
 */
import { SCOPED_ENV_VAR } from "./env_scope.ts";
import { ConfigFile } from "./config_file.ts";
import type { HostPaths } from "./paths.ts";
import { HOST_ENV_VARS } from "./paths.ts";
import type { PluginDescriptor, Settings } from "./plugin.ts";
import { mergeSettings } from "./settings/store.ts";

/**
 * The source of system uptime the uptime plugin reads. Deno asks for `--allow-all` to read
 * `/proc`, so the scope also grants `--allow-sys=osUptime` (the same counter, nothing else).
 */
export const PROC_UPTIME = "/proc/uptime";

/**
 * Variables libraries read at run time (`yaml`: `LOG_TOKENS`, `LOG_STREAM`; `mqtt` and its
 * streams: `READABLE_STREAM`, `DEBUG`, `MQTTJS_SOCKS_PROXY`; `ws`: `WS_NO_*`); allowed so the read
 * does not fail, never passed to the child.
 */
export const LIBRARY_ENV_VARS = [
  "LOG_TOKENS",
  "LOG_STREAM",
  "READABLE_STREAM",
  "DEBUG",
  "MQTTJS_SOCKS_PROXY",
  "WS_NO_UTF_8_VALIDATE",
  "WS_NO_BUFFER_UTIL",
] as const;

/** Inputs of {@linkcode scopedPermissionFlags}. */
export interface ScopeOptions {
  paths: HostPaths;
  /** Listen address; port 0 allows any port on that address. */
  listen: { hostname: string; port: number };
  /** Extra network destinations (`host` or `host:port`). @default [] */
  netHosts?: string[];
  /** Extra environment variable names. @default [] */
  envVars?: string[];
  /** Folders the host only reads (e.g. the web UI's static files). @default [] */
  readOnly?: string[];
}

/**
 * The Deno permission flags of the scoped host: read/write of its own folder and the log
 * folder, read of `/proc/uptime` (and `osUptime`), network to its listen address and the plugins' destinations,
 * and only its own environment variables.
 *
 * @example
 * ```ts
 * import { resolveHostPaths } from "./paths.ts";
 * import { scopedPermissionFlags } from "./launch.ts";
 * const flags = scopedPermissionFlags({
 *   paths: resolveHostPaths({ HOME: "/h" }),
 *   listen: { hostname: "127.0.0.1", port: 5000 },
 * });
 * console.assert(flags.includes("--allow-net=127.0.0.1:5000"));
 * ```
 */
export function scopedPermissionFlags(options: ScopeOptions): string[] {
  const { paths, listen } = options;
  const unique = (xs: string[]) => [...new Set(xs.filter((x) => x !== ""))];
  const rw = unique([paths.hostDir, paths.logDir]);
  const listenAddr = listen.port === 0 ? listen.hostname : `${listen.hostname}:${listen.port}`;
  const net = unique([listenAddr, ...(options.netHosts ?? [])]);
  const env = unique([
    ...HOST_ENV_VARS,
    ...LIBRARY_ENV_VARS,
    SCOPED_ENV_VAR,
    ...(options.envVars ?? []),
  ]);
  for (const v of [...rw, ...(options.readOnly ?? []), ...net, ...env]) {
    if (v.includes(",")) throw new TypeError(`Cannot scope permissions: ',' in '${v}'`);
  }
  return [
    `--allow-read=${unique([...rw, ...(options.readOnly ?? []), PROC_UPTIME]).join(",")}`,
    `--allow-write=${rw.join(",")}`,
    `--allow-net=${net.join(",")}`,
    `--allow-env=${env.join(",")}`,
    "--allow-sys=osUptime",
    "--no-prompt",
  ];
}

/**
 * Reads config.yaml (without writing) and asks each plugin which network destinations its
 * current settings need.
 */
export async function pluginNetworkHosts(
  configFile: string,
  plugins: PluginDescriptor[],
): Promise<string[]> {
  const doc = await new ConfigFile(configFile).read();
  const stored = (doc.plugins ?? {}) as Record<string, unknown>;
  const out: string[] = [];
  for (const p of plugins) {
    if (!p.networkHosts) continue;
    const raw = stored[p.id];
    const values = raw && typeof raw === "object" && !Array.isArray(raw) ? raw as Settings : {};
    out.push(...p.networkHosts(mergeSettings(p.settingsDefaults, values)));
  }
  return out;
}

/** Every environment variable name the plugins declare. */
export function pluginEnvVars(plugins: PluginDescriptor[]): string[] {
  return plugins.flatMap((p) => p.envVars ?? []);
}
