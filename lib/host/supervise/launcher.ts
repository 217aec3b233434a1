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

/**
 * `deno task host`: runs and supervises the scoped host the arguments describe until it stops for
 * good; returns its exit code. `script` is the entry script the host and probe processes run,
 * `staticDir` the folder the pages read.
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
      const start = await hostStart({ script, plugins, serve, readOnly }, port, resumed);
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
          print(line);
        } else if (message.type === "listening") {
          const base = `http://${message.hostname}:${message.port}`;
          if (message.adminKey) {
            print("Admin API key (shown once, store it now):");
            print(message.adminKey);
          }
          print(
            port === null
              ? `Plugin host listening on ${base}/`
              : `Plugin host re-applied its settings, listening on ${base}/`,
          );
          if (port === null && args.ui) print(`Plugin pages: ${base}/plugins/`);
          port = message.port;
        } else if (message.type === "restart") {
          restart = message.reason;
        } else if (message.type === "probe") {
          const { id, plugin, probe, args: probeArgs, net } = message;
          runProbe(script, { plugin, probe, args: probeArgs, net }).then((outcome) =>
            reply({ id, ...outcome })
          );
        }
      }
      const status = await child.status;
      await writer.close().catch(() => {});
      if (restart === null || stopping) return status.code;
      print(`Plugin host restarting: ${restart}`);
      resumed = true;
    }
  } finally {
    Deno.removeSignalListener("SIGINT", onInt);
    Deno.removeSignalListener("SIGTERM", onTerm);
  }
}

async function runProbe(
  script: string,
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
    return { type: "probe_result", result: await runProbeProcess(script, request) };
  } catch (err) {
    return { type: "probe_result", error: messageOf(err) };
  }
}
