/**
 * The launcher's side of the permission-scoped host: starts the host under the flags derived
 * from config.yaml, prints what the host announces, runs probes for it, restarts it under a new
 * scope when it asks (the only way its scope widens), forwards SIGINT/SIGTERM, and returns the
 * host's exit code when it stops for good.
 *
 * @module
 */
import { messageOf } from "../../error.ts";
import { listenHostNames, parseHostList } from "../../http/mod.ts";
import { print } from "../../log.ts";
import type { HostArgs } from "../host_args.ts";
import type { PluginDescriptor } from "../plugin.ts";
import { hostStart, runProbeProcess } from "./child_processes.ts";
import {
  decodeMessage,
  encodeMessage,
  type HostMessage,
  isNetTarget,
  type LauncherMessage,
  readLines,
} from "./protocol.ts";
import type { ProbeRequest } from "./link.ts";

/** One start of the host. */
export interface HostStart {
  /** Deno flags and arguments of `deno run`. */
  args: string[];
  env: Record<string, string>;
}

/** Options of {@linkcode superviseHost}. */
export interface SuperviseOptions {
  /**
   * Derives the command of the next start from config.yaml: `port` is the port the host bound
   * (null before the first start), `resumed` whether this start follows a planned restart.
   */
  prepare(port: number | null, resumed: boolean): Promise<HostStart>;
  /** Runs a probe in a process allowed to reach `request.net` only. */
  probe(request: ProbeRequest): Promise<Record<string, unknown>>;
  /** Prints a line for the user. */
  print(line: string): void;
  /** Lines printed once the host listens (besides the address). @default [] */
  banner?(base: string): string[];
}

/** Runs and supervises the host until it stops for good; returns its exit code. */
export async function superviseHost(options: SuperviseOptions): Promise<number> {
  let port: number | null = null;
  let resumed = false;
  let stopping = false;
  let child: Deno.ChildProcess | null = null;
  const forward = (signal: Deno.Signal) => () => {
    stopping = true;
    child?.kill(signal);
  };
  const onInt = forward("SIGINT");
  const onTerm = forward("SIGTERM");
  Deno.addSignalListener("SIGINT", onInt);
  Deno.addSignalListener("SIGTERM", onTerm);
  try {
    while (true) {
      const start = await options.prepare(port, resumed);
      child = new Deno.Command(Deno.execPath(), {
        args: start.args,
        clearEnv: true,
        env: start.env,
        stdin: "piped",
        stdout: "piped",
        stderr: "inherit",
      }).spawn();
      const writer = child.stdin.getWriter();
      const encoder = new TextEncoder();
      const reply = (message: LauncherMessage) =>
        writer.write(encoder.encode(encodeMessage(message))).catch(() => {});
      let restart: string | null = null;
      for await (const line of readLines(child.stdout)) {
        const message = decodeMessage<HostMessage>(line);
        if (message === null) {
          options.print(line);
        } else if (message.type === "listening") {
          const base = `http://${message.hostname}:${message.port}`;
          if (message.adminKey) {
            options.print("Admin API key (shown once, store it now):");
            options.print(message.adminKey);
          }
          options.print(
            port === null
              ? `Plugin host listening on ${base}/`
              : `Plugin host re-applied its settings, listening on ${base}/`,
          );
          if (port === null) { for (const l of options.banner?.(base) ?? []) options.print(l); }
          port = message.port;
        } else if (message.type === "restart") {
          restart = message.reason;
        } else if (message.type === "probe") {
          const { id, plugin, probe, args, net } = message;
          runProbe(options, { plugin, probe, args, net }).then((outcome) =>
            reply({ id, ...outcome })
          );
        }
      }
      const status = await child.status;
      await writer.close().catch(() => {});
      if (restart === null || stopping) return status.code;
      options.print(`Plugin host restarting: ${restart}`);
      resumed = true;
    }
  } finally {
    Deno.removeSignalListener("SIGINT", onInt);
    Deno.removeSignalListener("SIGTERM", onTerm);
  }
}

/**
 * `deno task host`: runs and supervises the scoped host the arguments describe; `script` is the
 * entry script the host and probe processes run, `staticDir` the folder the pages read.
 */
export async function launchHost(
  args: HostArgs,
  { script, plugins, staticDir }: {
    script: string;
    plugins: PluginDescriptor[];
    staticDir: string;
  },
): Promise<number> {
  // The host may not ask the machine for its names (no --allow-sys): they are computed here.
  const names = listenHostNames(args.hostname, {
    extra: [...args.allowedHosts, ...parseHostList(Deno.env.get("LOCALBENCH_ALLOWED_HOSTS"))],
  });
  const serve = { ...args, allowedHosts: [...names] };
  const readOnly = args.ui ? [staticDir] : [];
  return await superviseHost({
    prepare: (port, resumed) => hostStart({ script, plugins, serve, readOnly }, port, resumed),
    probe: (request) => runProbeProcess(script, request),
    print,
    banner: (base) => args.ui ? [`Plugin pages: ${base}/plugins/`] : [],
  });
}

async function runProbe(
  options: SuperviseOptions,
  request: ProbeRequest,
): Promise<
  { type: "probe_result"; result: Record<string, unknown> } | {
    type: "probe_result";
    error: string;
  }
> {
  if (!Array.isArray(request.net) || request.net.length === 0 || !request.net.every(isNetTarget)) {
    return { type: "probe_result", error: "the probe names no valid host:port" };
  }
  try {
    return { type: "probe_result", result: await options.probe(request) };
  } catch (err) {
    return { type: "probe_result", error: messageOf(err) };
  }
}
