/**
 * The launcher's side of the permission-scoped host: starts the host under the flags derived
 * from config.yaml, prints what the host announces, relays its standard error, runs probes for
 * it, and supervises it (`supervisor.ts`: restarts under a new scope when it asks — the only way
 * its scope widens —, after a crash with backoff, the plugins' failsafes while it is down);
 * forwards SIGINT/SIGTERM and returns the host's exit code when it stops for good.
 *
 * @module
 */
import { systemClock } from "../../clock.ts";
import { messageOf } from "../../error.ts";
import { listenHostNames, parseHostList } from "../../http/mod.ts";
import { type DetailSink, print, printError, stderrSink } from "../../log.ts";
import { ERRORS_LOG_NAME } from "../host_log.ts";
import type { HostArgs } from "../host_args.ts";
import type { PluginDescriptor } from "../plugin.ts";
import { hostStart, printerProcessStart, runProbeProcess } from "./child_processes.ts";
import { pluginFailsafes } from "./failsafe.ts";
import {
  decodeMessage,
  encodeMessage,
  type HostMessage,
  type LauncherMessage,
  type LogFileKind,
  readLines,
} from "./protocol.ts";
import type { ProbeRequest } from "./link.ts";
import {
  type HostExit,
  type HostRun,
  Supervisor,
  TAIL_LINE_LENGTH,
  TAIL_LINES,
} from "./supervisor.ts";

/** One start of the host. */
export interface HostStart {
  /** Deno flags and arguments of `deno run`. */
  args: string[];
  env: Record<string, string>;
}

/**
 * `deno task host`: runs and supervises the scoped host the arguments describe until it is
 * stopped (see `supervisor.ts`: planned restarts, crashes, failsafes); returns the exit code.
 * `script` is the entry script the host, probe and failsafe processes run, `staticDir` the
 * folder the pages read.
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
  // The service's start: every run of the host reports its uptime from here (restarts included).
  const serviceStartedAt = systemClock.now();
  const readOnly = args.ui ? [staticDir] : [];
  // The supervision lines go to standard error at once and to host.log through the host; a
  // crash's stack (relayed to standard error as the host wrote it) to errors.log.
  const toHost = new LogHandoff();
  const details: DetailSink = {
    name: ERRORS_LOG_NAME,
    write: (line, lines) => [line, ...lines].forEach((l) => toHost.add(l, "errors")),
  };
  let port: number | null = null;
  const supervisor = new Supervisor({
    clock: systemClock,
    sink: (level, line) => {
      toHost.add(line);
      quietly(() => stderrSink(level, line));
    },
    failsafes: () => pluginFailsafes(script, plugins),
    details,
    async start(resumed, up) {
      const start = await hostStart(
        { script, plugins, serve, readOnly, serviceStartedAt },
        port,
        resumed,
      );
      return spawnHost(start, script, toHost, (message) => {
        if (message.adminKey) {
          print("Admin API key (shown once, store it now):");
          print(message.adminKey);
        }
        const base = `http://${message.hostname}:${message.port}`;
        const how = port === null ? "" : resumed ? " re-applied its settings," : " is back,";
        print(`Plugin host${how} listening on ${base}/`);
        if (port === null && args.ui) print(`Plugin pages: ${base}/plugins/`);
        port = message.port;
        up();
      });
    },
  });
  // The printer process outlives every restart of the host; it stops after the host.
  const printerKeeper = new Supervisor({
    name: "Printer process",
    clock: systemClock,
    sink: (level, line) => {
      toHost.add(line);
      quietly(() => stderrSink(level, line));
    },
    failsafes: () => Promise.resolve([]),
    details,
    start: (_resumed, up) => {
      const run = spawnPrinterProcess(printerProcessStart(script, args.printerSpeed));
      up();
      return Promise.resolve(run);
    },
  });
  const printerEnded = printerKeeper.run();
  const onInt = () => supervisor.stop("SIGINT");
  const onTerm = () => supervisor.stop("SIGTERM");
  Deno.addSignalListener("SIGINT", onInt);
  Deno.addSignalListener("SIGTERM", onTerm);
  try {
    const code = await supervisor.run();
    printerKeeper.stop("SIGTERM");
    await printerEnded;
    return code;
  } finally {
    Deno.removeSignalListener("SIGINT", onInt);
    Deno.removeSignalListener("SIGTERM", onTerm);
  }
}

/** Runs a write to standard error; one that fails (closed) must not end the supervision. */
function quietly(write: () => void): void {
  try {
    write();
  } catch {
    // nobody reads standard error any more
  }
}

/** Lines waiting for a host to append them to its logs (the newest 200 at most), in order. */
class LogHandoff {
  #lines: { line: string; file: LogFileKind }[] = [];
  #send: ((lines: string[], file: LogFileKind) => void) | null = null;

  add(line: string, file: LogFileKind = "host"): void {
    this.#lines.push({ line, file });
    this.#lines.splice(0, this.#lines.length - 200);
    this.#flush();
  }

  /** Hands the lines to `send` from now on (null: keep them). */
  to(send: ((lines: string[], file: LogFileKind) => void) | null): void {
    this.#send = send;
    this.#flush();
  }

  #flush(): void {
    if (!this.#send) return;
    // One message per run of lines of the same file.
    let run: string[] = [];
    let file: LogFileKind = "host";
    for (const item of this.#lines.splice(0)) {
      if (item.file !== file && run.length > 0) {
        this.#send(run, file);
        run = [];
      }
      file = item.file;
      run.push(item.line);
    }
    if (run.length > 0) this.#send(run, file);
  }
}

type Listening = Extract<HostMessage, { type: "listening" }>;

/**
 * Starts the host process: relays its standard error (keeping the last lines), hands it the
 * launcher's log lines, prints its other output, answers its messages.
 */
function spawnHost(
  start: HostStart,
  script: string,
  toHost: LogHandoff,
  listening: (message: Listening) => void,
): HostRun {
  const child = spawn(start, "piped");
  const writer = child.stdin.getWriter();
  const encoder = new TextEncoder();
  const reply = (message: LauncherMessage) =>
    writer.write(encoder.encode(encodeMessage(message))).catch(() => {});
  toHost.to((lines, file) =>
    reply(file === "errors" ? { type: "log", lines, file } : { type: "log", lines })
  );
  const tail: string[] = [];
  let restart: string | null = null;
  const readMessages = async () => {
    for await (const line of readLines(child.stdout)) {
      const message = decodeMessage<HostMessage>(line);
      if (message === null) print(line);
      else if (message.type === "listening") listening(message);
      else if (message.type === "restart") restart = message.reason;
      else if (message.type === "probe") {
        const { id, plugin, probe, args: probeArgs, net } = message;
        runProbe(script, { plugin, probe, args: probeArgs, net }).then((outcome) =>
          reply({ id, ...outcome })
        );
      }
    }
  };
  const ended = Promise.all([relayErrors(child, tail), readMessages()]).then(async () => {
    const status = await child.status;
    toHost.to(null);
    await writer.close().catch(() => {});
    return { code: status.code, signal: status.signal, restart, tail };
  });
  return runOf(child, ended);
}

/** Starts the printer process; its standard error goes to the launcher's (kept for a crash). */
function spawnPrinterProcess(start: HostStart): HostRun {
  const child = spawn(start, "null");
  const tail: string[] = [];
  const ended = relayErrors(child, tail).then(async () => {
    const status = await child.status;
    return { code: status.code, signal: status.signal, restart: null, tail };
  });
  return runOf(child, ended);
}

/** Starts a child of the launcher: its own environment only, its standard error piped. */
function spawn(start: HostStart, stdout: "piped" | "null"): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: start.args,
    clearEnv: true,
    env: start.env,
    stdin: "piped",
    stdout,
    stderr: "piped",
  }).spawn();
}

/** Relays a child's standard error to the launcher's, keeping its last lines in `tail`. */
async function relayErrors(child: Deno.ChildProcess, tail: string[]): Promise<void> {
  for await (const line of readLines(child.stderr)) {
    quietly(() => printError(line));
    tail.push(line.slice(0, TAIL_LINE_LENGTH));
    tail.splice(0, tail.length - TAIL_LINES);
  }
}

/** A child as the supervisor sees it. */
function runOf(child: Deno.ChildProcess, ended: Promise<HostExit>): HostRun {
  return {
    pid: child.pid,
    ended,
    kill(signal) {
      try {
        child.kill(signal);
      } catch {
        // already ended
      }
    },
  };
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
  try {
    return { type: "probe_result", result: await runProbeProcess(script, request) };
  } catch (err) {
    return { type: "probe_result", error: messageOf(err) };
  }
}
