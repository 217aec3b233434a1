/**
 * The permission scope of the stand-alone host: which Deno flags it runs under, computed from
 * its folders, its listen address and what the plugins declare (network destinations, files,
 * environment variables, system information). No subprocesses, no FFI.
 *
 * @module
 */
import { SCOPED_ENV_VAR } from "./env_scope.ts";
import { ConfigFile } from "./config_file.ts";
import { HOST_ENV_VARS, type HostPaths } from "./paths.ts";
import type { PluginDescriptor, Settings } from "./plugin.ts";
import { readStoredSettings } from "./settings/mod.ts";

/**
 * Variables the launcher passes to the scoped host that Deno itself (not the host) reads, beside
 * the host's own variables ({@linkcode HOST_ENV_VARS}) and the plugins' declared ones.
 */
export const RUNTIME_ENV_VARS = [
  "PATH",
  "DENO_DIR",
  "XDG_CACHE_HOME",
  "NO_COLOR",
  "TMPDIR",
  "LANG",
] as const;

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
  /** Listen address; port 0 lets the host bind a free port (and reach no other port). */
  listen: { hostname: string; port: number };
  /** Extra network destinations (`host` or `host:port`). @default [] */
  netHosts?: string[];
  /** Extra environment variable names. @default [] */
  envVars?: string[];
  /** Folders the host only reads (e.g. the web UI's static files). @default [] */
  readOnly?: string[];
  /** Single files the host only reads, links already resolved (see {@linkcode resolveReadFiles}). @default [] */
  readFiles?: string[];
  /** System information the host may read (Deno's `--allow-sys` kinds). @default [] */
  systemInfo?: string[];
}

/**
 * The Deno permission flags of the scoped host: read/write of its own folder and the log
 * folder, network to its listen address and the plugins' destinations, only its own environment
 * variables and the system information the plugins read.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveHostPaths } from "./paths.ts";
 * import { scopedPermissionFlags } from "./launch.ts";
 * const flags = scopedPermissionFlags({
 *   paths: resolveHostPaths({ HOME: "/h" }),
 *   listen: { hostname: "127.0.0.1", port: 5000 },
 * });
 * assert.ok(flags.includes("--allow-net=127.0.0.1:5000"));
 * ```
 */
export function scopedPermissionFlags(options: ScopeOptions): string[] {
  const { paths, listen } = options;
  const unique = (xs: string[]) => [...new Set(xs.filter((x) => x !== ""))];
  const rw = unique([paths.hostDir, paths.logDir]);
  // `host:0` lets the host bind any free port there without reaching other ports of that host.
  const listenAddr = `${listen.hostname}:${listen.port}`;
  const net = unique([listenAddr, ...(options.netHosts ?? [])]);
  const env = unique([
    ...HOST_ENV_VARS,
    ...LIBRARY_ENV_VARS,
    SCOPED_ENV_VAR,
    ...(options.envVars ?? []),
  ]);
  const read = unique([...rw, ...(options.readOnly ?? []), ...(options.readFiles ?? [])]);
  const sys = unique(options.systemInfo ?? []);
  for (const v of [...read, ...net, ...env, ...sys]) {
    if (v.includes(",")) throw new TypeError(`Cannot scope permissions: ',' in '${v}'`);
  }
  return [
    `--allow-read=${read.join(",")}`,
    `--allow-write=${rw.join(",")}`,
    `--allow-net=${net.join(",")}`,
    `--allow-env=${env.join(",")}`,
    ...(sys.length > 0 ? [`--allow-sys=${sys.join(",")}`] : []),
    "--no-prompt",
  ];
}

/** What the plugins' stored settings need beyond the host's own folders. */
export interface PluginScope {
  /** Network destinations (`host:port`). */
  netHosts: string[];
  /** Files to read (as the plugins named them, before resolving links). */
  readFiles: string[];
}

/**
 * Reads config.yaml (without writing) and migrates and validates the stored settings exactly as
 * the host will at its start: plugin id → its settings (restricted ones are not in the file).
 */
export async function storedPluginSettings(
  configFile: string,
  plugins: PluginDescriptor[],
): Promise<Map<string, Settings>> {
  return readStoredSettings(await new ConfigFile(configFile).read(), plugins).settings;
}

/** Asks each plugin what its stored settings need (read by {@linkcode storedPluginSettings}). */
export async function pluginScope(
  configFile: string,
  plugins: PluginDescriptor[],
): Promise<PluginScope> {
  const settings = await storedPluginSettings(configFile, plugins);
  const out: PluginScope = { netHosts: [], readFiles: [] };
  for (const p of plugins) {
    const values = settings.get(p.id)!;
    out.netHosts.push(...(p.networkHosts?.(values) ?? []));
    out.readFiles.push(...(p.readFiles?.(values) ?? []));
  }
  return out;
}

/** The outcome of {@linkcode resolveReadFiles}. */
export interface ResolvedFiles {
  /** Real paths of regular files, granted alone. */
  granted: string[];
  /** Files that are not granted, with the reason. */
  refused: { path: string; reason: string }[];
  /** Every named path → its granted real path, or null when refused (handed to the host). */
  byPath: Record<string, string | null>;
}

/**
 * Resolves the files the plugins name to their real paths (following every link) and keeps the
 * regular files: the scope grants the file a link points to, never the link's folder.
 */
export async function resolveReadFiles(files: string[]): Promise<ResolvedFiles> {
  const out: ResolvedFiles = { granted: [], refused: [], byPath: {} };
  for (const path of new Set(files)) {
    try {
      const real = await Deno.realPath(path);
      if (!(await Deno.stat(real)).isFile) {
        out.refused.push({ path, reason: "not a regular file" });
      } else if (real.includes(",")) {
        out.refused.push({ path, reason: "its real path contains ','" });
      } else {
        out.granted.push(real);
        out.byPath[path] = real;
        continue;
      }
    } catch (err) {
      out.refused.push({
        path,
        reason: err instanceof Deno.errors.NotFound ? "not found" : String(err),
      });
    }
    out.byPath[path] = null;
  }
  return out;
}

/** Every environment variable name the plugins declare. */
export function pluginEnvVars(plugins: PluginDescriptor[]): string[] {
  return plugins.flatMap((p) => p.envVars ?? []);
}

/** Every folder or file outside the host's own that the plugins declare they read. */
export function pluginReadPaths(plugins: PluginDescriptor[]): string[] {
  return plugins.flatMap((p) => p.readPaths ?? []);
}

/** Every kind of system information the plugins declare. */
export function pluginSystemInfo(plugins: PluginDescriptor[]): string[] {
  return plugins.flatMap((p) => p.systemInfo ?? []);
}
