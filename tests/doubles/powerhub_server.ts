/**
 * The power-hub simulator as a standalone program for demos and manual tests:
 *
 * ```sh
 * deno task hub:sim -- --port 8765 [--path /ws] [--delay-ms 0]
 * ```
 *
 * Prints `listening on ws://127.0.0.1:PORT/PATH` once it accepts connections, logs every command
 * it receives, and stops on Ctrl-C (SIGINT) or SIGTERM.
 *
 * @module
 */
import { parseOptions } from "../../lib/args.ts";
import { createLogger, print, printError } from "../../lib/log.ts";
import { startHubSimulator } from "./powerhub_sim.ts";

/** Options of the standalone simulator. */
export interface HubServerArgs {
  port: number;
  path: string;
  delayMs: number;
}

/**
 * Parses the command line of the standalone simulator.
 *
 * @throws {RangeError} on an invalid port, path or delay.
 */
export function parseHubServerArgs(argv: string[]): HubServerArgs {
  const { values } = parseOptions({
    args: argv,
    options: {
      port: { type: "string", default: "0" },
      path: { type: "string", default: "/ws" },
      "delay-ms": { type: "string", default: "0" },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new RangeError(`Cannot listen: '--port' must be 0..65535, got '${values.port}'`);
  }
  if (!values.path.startsWith("/")) {
    throw new RangeError(`Cannot listen: '--path' must start with '/', got '${values.path}'`);
  }
  const delayMs = Number(values["delay-ms"]);
  if (!Number.isFinite(delayMs) || delayMs < 0) {
    throw new RangeError(`Cannot listen: '--delay-ms' must be 0 or more`);
  }
  return { port, path: values.path, delayMs };
}

async function main(argv: string[]): Promise<number> {
  let args: HubServerArgs;
  try {
    args = parseHubServerArgs(argv);
  } catch (err) {
    printError(err instanceof Error ? err.message : String(err));
    return 2;
  }
  const log = createLogger("hub_sim");
  const sim = await startHubSimulator({
    port: args.port,
    path: args.path,
    onCommand: (c) => log.info(`${c.kind} ${c.id} → ${c.on ? "on" : "off"}`),
  });
  sim.setDelayMs(args.delayMs);
  print(`listening on ${sim.url}`);
  const stopped = new Promise<void>((resolve) => {
    for (const signal of ["SIGINT", "SIGTERM"] as const) Deno.addSignalListener(signal, resolve);
  });
  await stopped;
  await sim.close();
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
