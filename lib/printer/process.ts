/**
 * The printer process of `deno task host`: the printer service — the serial line, the job, the
 * targets, the temperature history, the terminal — served on the host's socket
 * (`<host dir>/printer.sock`), so that restarts of the host (a wider permission scope, a crash)
 * never reopen the port (opening a Marlin port resets the board) nor lose the print. It connects
 * at start as config.yaml's `serial` section says, and disconnects when it is stopped (SIGTERM,
 * SIGINT, or its launcher gone).
 *
 * Its Deno permissions: `--allow-ffi` on libc (the serial line), read of config.yaml and of the
 * uploads folder (the files it prints), read and write of its own folder (`<host dir>/run`, which
 * it creates: the host may not have started yet) and `unix:` net on its socket; nothing else.
 *
 * @module
 */
import { dirname } from "node:path";
import { parse } from "yaml";
import { messageOf } from "../error.ts";
import type { Logger } from "../log.ts";
import { isPlainObject } from "../shared/json_object.ts";
import {
  connectAtStart,
  type ConnectionSettings,
  connectionSettingsOf,
} from "./connection_settings.ts";
import { servePrinter } from "./remote/mod.ts";
import { listSerialPorts, openSerialTransport } from "./serial/mod.ts";
import { PrinterService } from "./service.ts";

/** Options of {@linkcode runPrinterProcess}. */
export interface PrinterProcessOptions {
  /** The socket to serve on. */
  socket: string;
  /** The host's config.yaml (read for the `serial` section). */
  configFile: string;
  /** The folder of the files users uploaded (the job prints them). */
  uploadsDir: string;
  /** Simulated seconds per real second of the virtual printer. */
  virtualSpeed: number;
  logger: Logger;
  /** Resolves when the process must stop. */
  stopped: Promise<unknown>;
}

/** Runs the printer process until `stopped`; returns its exit code. */
export async function runPrinterProcess(options: PrinterProcessOptions): Promise<number> {
  const { logger } = options;
  const settings = () => readConnectionSettings(options.configFile);
  const printer = new PrinterService({
    openTransport: openSerialTransport,
    listPorts: async () => {
      const extra = (await settings()).additional_ports;
      return (await listSerialPorts({ extra })).map((p) => p.path);
    },
    virtualSpeed: options.virtualSpeed,
    uploadsDir: options.uploadsDir,
  });
  await Deno.mkdir(dirname(options.socket), { recursive: true, mode: 0o700 });
  const server = await servePrinter(printer, { path: options.socket, logger });
  logger.info(`Printer process serving on ${options.socket}`);
  try {
    await connectAtStart(printer, await settings(), logger);
  } catch (err) {
    logger.error(`Cannot read the connection settings: ${messageOf(err)}`);
  }
  await options.stopped;
  await server.close();
  await printer.close();
  logger.info("Printer process stopped");
  return 0;
}

/** The `serial` section of config.yaml (the defaults when the file is missing). */
async function readConnectionSettings(file: string): Promise<ConnectionSettings> {
  let text = "";
  try {
    text = await Deno.readTextFile(file);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  const doc = parse(text) ?? {};
  return connectionSettingsOf(isPlainObject(doc) ? doc : {});
}
