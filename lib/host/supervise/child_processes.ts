/**
 * The processes the launcher starts: the scoped host (its flags derived from config.yaml at
 * every start), a probe (allowed to reach one destination, nothing else) and an account command
 * (under the host's scope, no network); and the probe's own side.
 *
 * @module
 */
import { UsageError } from "../../error.ts";
import { SCOPED_ENV_VAR } from "../env_scope.ts";
import {
  LIBRARY_ENV_VARS,
  pluginEnvVars,
  pluginScope,
  pluginSystemInfo,
  resolveReadFiles,
  RUNTIME_ENV_VARS,
  scopedPermissionFlags,
} from "../launch.ts";
import { HOST_ENV_VARS, resolveHostPaths } from "../paths.ts";
import type { PluginDescriptor } from "../plugin.ts";
import type { HostArgs } from "../host_args.ts";
import type { HostStart } from "./launcher.ts";
import type { ProbeRequest } from "./link.ts";
import { readLines } from "./protocol.ts";
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
  const flags = scopedPermissionFlags({
    paths,
    listen: { hostname: serve.hostname, port: listenPort },
    netHosts: scope.netHosts,
    readFiles: files.granted,
    envVars: pluginEnvVars(plugins),
    systemInfo: pluginSystemInfo(plugins),
    readOnly: options.readOnly,
  });
  const args = [
    "run",
    ...flags,
    options.script,
    "--scoped",
    "--supervised",
    "--host",
    serve.hostname,
    "--port",
    String(listenPort),
    "--printer-speed",
    String(serve.printerSpeed),
    "--scope-files",
    JSON.stringify(files.byPath),
    ...(serve.allowedHosts.length > 0 ? ["--allowed-hosts", serve.allowedHosts.join(",")] : []),
    ...(serve.ui ? [] : ["--no-ui"]),
    ...(resumed ? ["--resume"] : []),
  ];
  return { args, env: scopedEnv(plugins) };
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
export async function runProbeProcess(
  script: string,
  request: ProbeRequest,
): Promise<Record<string, unknown>> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-prompt",
      `--allow-net=${request.net.join(",")}`,
      script,
      "--probe",
      request.plugin,
      request.probe,
      JSON.stringify(request.args),
    ],
    clearEnv: true,
    env: envOf(RUNTIME_ENV_VARS),
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), PROBE_PROCESS_TIMEOUT_MS);
  let last = "";
  try {
    for await (const line of readLines(child.stdout)) if (line.trim() !== "") last = line;
    await child.status;
  } finally {
    clearTimeout(timer);
  }
  const result = JSON.parse(last || "null");
  if (!isPlainObject(result)) {
    throw new Error("the probe printed no result");
  }
  return result;
}
