/**
 * The processes the launcher starts: the scoped host (its flags derived from config.yaml at
 * every start), a probe (allowed to reach one destination, nothing else) and an account command
 * (under the host's scope, no network); and the probe's own side.
 *
 * @module
 */
import { dirname } from "node:path";
import { UsageError } from "../../error.ts";
import { SCOPED_ENV_VAR } from "../env_scope.ts";
import {
  LIBRARY_ENV_VARS,
  pluginEnvVars,
  pluginReadPaths,
  pluginScope,
  pluginSystemInfo,
  resolveReadFiles,
  RUNTIME_ENV_VARS,
  scopedPermissionFlags,
} from "../launch.ts";
import { HOST_ENV_VARS, resolveHostPaths } from "../paths.ts";
import { LIBC_PATHS } from "../../printer/serial/mod.ts";
import type { PluginDescriptor } from "../plugin.ts";
import type { HostArgs } from "../host_args.ts";
import type { HostStart } from "./launcher.ts";
import type { ProbeRequest } from "./link.ts";
import { isNetTarget, readLines } from "./protocol.ts";
import { isPlainObject } from "../../shared/json_object.ts";

/** The values of `names` that are set in the environment `read` reads (the process's). */
export function envOf(
  names: readonly string[],
  read: (name: string) => string | undefined = (name) => Deno.env.get(name),
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const v = read(name);
    if (v !== undefined) out[name] = v;
  }
  return out;
}

/** The environment of a scoped process: the runtime's and the host's variables, those named. */
function scopedEnv(plugins: PluginDescriptor[]): Record<string, string> {
  const own = [...HOST_ENV_VARS, ...pluginEnvVars(plugins)];
  return {
    ...envOf(RUNTIME_ENV_VARS),
    ...envOf(own),
    [SCOPED_ENV_VAR]: [...own, ...LIBRARY_ENV_VARS].join(","),
  };
}

/** Options of {@linkcode hostStart}. */
export interface HostStartOptions {
  /** The entry script (`host.ts`). */
  script: string;
  plugins: PluginDescriptor[];
  /** The launcher's arguments, `allowedHosts` being every name the host answers to. */
  serve: HostArgs;
  /** Folders the host only reads (the UI's static files). */
  readOnly: string[];
  /** When the service (the launcher) started, ms since the epoch: the same at every start. */
  serviceStartedAt: number;
}

/**
 * The command of one start of the scoped host: reads config.yaml as the host will (migrated,
 * validated), resolves the files the plugins name, and derives the flags.
 */
export async function hostStart(
  options: HostStartOptions,
  port: number | null,
  resumed: boolean,
): Promise<HostStart> {
  const { plugins, serve } = options;
  const paths = resolveHostPaths(envOf(HOST_ENV_VARS));
  const scope = await pluginScope(paths.configFile, plugins);
  const files = await resolveReadFiles(scope.readFiles);
  const listenPort = port ?? serve.port;
  // The server behind the connection limits' relay (lib/http/serve.ts) listens on one of a few
  // loopback ports drawn here, so the scope names them (and no other port of this machine). The
  // launcher may not open sockets to look for a free one: the host takes the first not in use.
  const innerPorts = innerPortCandidates();
  const flags = scopedPermissionFlags({
    paths,
    listen: { hostname: serve.hostname, port: listenPort },
    // The printer process's socket: the host's folder holds it, the net flag names it.
    netHosts: [
      ...scope.netHosts,
      `unix:${paths.printerSocket}`,
      ...innerPorts.map((p) => `127.0.0.1:${p}`),
    ],
    readFiles: files.granted,
    envVars: pluginEnvVars(plugins),
    systemInfo: pluginSystemInfo(plugins),
    readOnly: [...options.readOnly, ...pluginReadPaths(plugins)],
  });
  const args = [
    "run",
    // The log monitor collects a finished regex search's worker at once (`gc()`), instead of
    // holding its memory until the collector's next run.
    "--v8-flags=--expose-gc",
    ...flags,
    options.script,
    "--scoped",
    "--supervised",
    "--host",
    serve.hostname,
    "--port",
    String(listenPort),
    "--inner-ports",
    innerPorts.join(","),
    "--printer-speed",
    String(serve.printerSpeed),
    "--scope-files",
    JSON.stringify(files.byPath),
    "--printer-socket",
    paths.printerSocket,
    "--service-started",
    String(Math.trunc(options.serviceStartedAt)),
    ...(serve.allowedHosts.length > 0 ? ["--allowed-hosts", serve.allowedHosts.join(",")] : []),
    ...(serve.ui ? [] : ["--no-ui"]),
    ...(resumed ? ["--resume"] : []),
  ];
  return { args, env: scopedEnv(plugins) };
}

/**
 * The command of the printer process: libc for the serial line, its socket, config.yaml and the
 * uploads folder to read; no other file, no network, no other program.
 */
export function printerProcessStart(script: string, printerSpeed: number): HostStart {
  const paths = resolveHostPaths(envOf(HOST_ENV_VARS));
  const socket = paths.printerSocket;
  const runDir = dirname(socket);
  return {
    args: [
      "run",
      "--no-prompt",
      `--allow-ffi=${LIBC_PATHS.join(",")}`,
      `--allow-read=${[runDir, paths.configFile, paths.uploadsDir].join(",")}`,
      `--allow-write=${runDir}`,
      `--allow-net=unix:${socket}`,
      `--allow-env=${HOST_ENV_VARS.join(",")}`,
      script,
      "--printer",
      "--printer-speed",
      String(printerSpeed),
    ],
    env: { ...envOf(RUNTIME_ENV_VARS), ...envOf(HOST_ENV_VARS) },
  };
}

/**
 * Runs an account command (`script --scoped ...argv`) once under the host's scope: its folders,
 * no network; returns its exit code.
 */
export async function runScopedCommand(
  script: string,
  plugins: PluginDescriptor[],
  argv: string[],
): Promise<number> {
  const flags = scopedPermissionFlags({
    paths: resolveHostPaths(envOf(HOST_ENV_VARS)),
    listen: { hostname: "127.0.0.1", port: 0 },
    envVars: pluginEnvVars(plugins),
  });
  const status = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...flags, script, "--scoped", ...argv],
    clearEnv: true,
    env: scopedEnv(plugins),
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn().status;
  return status.code;
}

/** The probe process's side: runs `[plugin, name, argsJson]`'s probe and returns its result. */
export async function runProbe(
  plugins: readonly PluginDescriptor[],
  [pluginId, name, json]: string[],
): Promise<Record<string, unknown>> {
  const fn = plugins.find((p) => p.id === pluginId)?.probes?.[name ?? ""];
  if (!fn) throw new UsageError(`Unknown probe '${pluginId} ${name}'`);
  return await fn(JSON.parse(json ?? "{}"));
}

/** Longest run of a probe process. */
export const PROBE_PROCESS_TIMEOUT_MS = 15_000;

/**
 * Runs `script --probe PLUGIN NAME ARGS` in a process allowed to reach `request.net` and nothing
 * else (no files, no environment), and returns the JSON it prints.
 */
export function runProbeProcess(
  script: string,
  request: ProbeRequest,
): Promise<Record<string, unknown>> {
  const { plugin, probe, args, net } = request;
  return runNetProcess(script, ["--probe", plugin, probe, JSON.stringify(args)], net, {
    timeoutMs: PROBE_PROCESS_TIMEOUT_MS,
  });
}

/** Options of {@linkcode runNetProcess}. */
export interface NetProcessOptions {
  /** Text written to its standard input. @default none */
  input?: string;
  /** Killed after this long. */
  timeoutMs: number;
}

/**
 * Runs `script ...argv` in a process allowed to reach the `host:port` destinations of `net` and
 * nothing else (no files, no environment), and returns the JSON object it prints last.
 *
 * @throws {UsageError} when `net` names no valid destination; an Error when the process printed
 * no result (with the last line it wrote to standard error).
 */
export async function runNetProcess(
  script: string,
  argv: string[],
  net: string[],
  options: NetProcessOptions,
): Promise<Record<string, unknown>> {
  if (!Array.isArray(net) || net.length === 0 || !net.every(isNetTarget)) {
    throw new UsageError("the process names no valid host:port");
  }
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", `--allow-net=${net.join(",")}`, script, ...argv],
    clearEnv: true,
    env: envOf(RUNTIME_ENV_VARS),
    stdin: options.input === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs);
  let last = "";
  let error = "";
  try {
    if (options.input !== undefined) {
      const writer = child.stdin.getWriter();
      await writer.write(new TextEncoder().encode(options.input)).catch(() => {});
      await writer.close().catch(() => {});
    }
    const errors = (async () => {
      for await (const line of readLines(child.stderr)) if (line.trim() !== "") error = line;
    })();
    for await (const line of readLines(child.stdout)) if (line.trim() !== "") last = line;
    await errors;
    await child.status;
  } finally {
    clearTimeout(timer);
  }
  let result: unknown = null;
  try {
    result = JSON.parse(last || "null");
  } catch {
    // not a result
  }
  if (!isPlainObject(result)) {
    throw new Error(`the process printed no result${error ? `: ${error.slice(0, 300)}` : ""}`);
  }
  return result;
}

/** Four distinct random ports of the dynamic range (49152–65535), for the host's inner server. */
export function innerPortCandidates(): number[] {
  const ports = new Set<number>();
  const draw = new Uint16Array(1);
  while (ports.size < 4) {
    crypto.getRandomValues(draw);
    ports.add(49152 + (draw[0]! % 16384));
  }
  return [...ports];
}
