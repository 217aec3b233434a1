/**
 * `deno task host`'s printer process (`--printer`, started by the launcher): the printer service
 * on the host's socket (`lib/printer/process.ts`), until SIGTERM/SIGINT or until its launcher is
 * gone (its standard input closes).
 *
 * @module
 */
import { createLogger } from "../log.ts";
import { runPrinterProcess } from "../printer/process.ts";
import type { HostArgs } from "./host_args.ts";
import { HOST_ENV_VARS, resolveHostPaths } from "./paths.ts";
import { envOf } from "./supervise/child_processes.ts";

/** Runs the printer process; returns its exit code. */
export async function runHostPrinter(args: HostArgs): Promise<number> {
  const paths = resolveHostPaths(envOf(HOST_ENV_VARS));
  const { promise: stopped, resolve: stop } = Promise.withResolvers<void>();
  const onSignal = () => stop();
  Deno.addSignalListener("SIGINT", onSignal);
  Deno.addSignalListener("SIGTERM", onSignal);
  // The launcher holds our standard input: when it is gone, so are we.
  new Response(Deno.stdin.readable).arrayBuffer().then(onSignal, onSignal);
  try {
    return await runPrinterProcess({
      socket: paths.printerSocket,
      configFile: paths.configFile,
      uploadsDir: paths.uploadsDir,
      virtualSpeed: args.printerSpeed,
      logger: createLogger("localbench.printer"),
      stopped,
    });
  } finally {
    Deno.removeSignalListener("SIGINT", onSignal);
    Deno.removeSignalListener("SIGTERM", onSignal);
  }
}
