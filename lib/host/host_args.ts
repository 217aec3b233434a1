/**
 * The flags of `deno task host` (the launcher) and of the processes it starts: the scoped host
 * (the internal `--scoped`, `--supervised`, `--resume`, `--scope-files`, `--printer-socket`,
 * `--service-started`) and
 * the printer process (`--printer`).
 *
 * @module
 */
import { parseOptions } from "../args.ts";
import { UsageError } from "../error.ts";
import { parseHostList } from "../http/mod.ts";
import { HOST_COMMANDS_USAGE } from "./account_commands.ts";

/** Help text of `deno task host`. */
export const HOST_USAGE = `Usage: deno task host -- [options]
  --port N            listen port (0 = any free port)   [default: 5000]
  --host ADDR         listen address                    [default: 127.0.0.1]
  --printer-speed X   virtual printer clock speed-up    [default: 1]
  --allowed-hosts L   host names to answer besides the listen address's, comma-separated
                      (DNS rebinding guard)             [default: $LOCALBENCH_ALLOWED_HOSTS]
  --no-ui             serve the APIs only (no pages)
  -h, --help          show this help
${HOST_COMMANDS_USAGE}`;

/** Parsed host arguments. */
export type HostArgs = ReturnType<typeof parseHostArgs>;

/** Parses the server flags. */
export function parseHostArgs(argv: string[]) {
  const { values } = parseOptions({
    args: argv,
    options: {
      port: { type: "string", default: "5000" },
      host: { type: "string", default: "127.0.0.1" },
      "printer-speed": { type: "string", default: "1" },
      "allowed-hosts": { type: "string", multiple: true, default: [] },
      "no-ui": { type: "boolean", default: false },
      scoped: { type: "boolean", default: false },
      supervised: { type: "boolean", default: false },
      resume: { type: "boolean", default: false },
      "scope-files": { type: "string", default: "{}" },
      printer: { type: "boolean", default: false },
      "printer-socket": { type: "string" },
      "service-started": { type: "string" },
      "inner-ports": { type: "string", default: "0" },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`Invalid --port '${values.port}': must be 0..65535`);
  }
  const printerSpeed = Number(values["printer-speed"]);
  if (!(printerSpeed > 0 && printerSpeed <= 1000)) {
    throw new UsageError(
      `Invalid --printer-speed '${values["printer-speed"]}': must be in (0, 1000]`,
    );
  }
  const innerPorts = values["inner-ports"].split(",").map(Number);
  if (!innerPorts.every((p) => Number.isInteger(p) && p >= 0 && p <= 65535)) {
    throw new UsageError(
      `Invalid --inner-ports '${values["inner-ports"]}': ports 0..65535, comma-separated`,
    );
  }
  const started = values["service-started"];
  const serviceStartedAt = started === undefined ? null : Number(started);
  if (
    serviceStartedAt !== null && !(Number.isSafeInteger(serviceStartedAt) && serviceStartedAt > 0)
  ) {
    throw new UsageError(`Invalid --service-started '${started}': must be ms since the epoch`);
  }
  return {
    port,
    hostname: values.host,
    /** Internal: the loopback ports behind the connection limits (the launcher grants them). */
    innerPorts,
    printerSpeed,
    /** Host names answered besides the listen address's. */
    allowedHosts: values["allowed-hosts"].flatMap(parseHostList),
    ui: !values["no-ui"],
    scoped: values.scoped,
    /** Internal: a launcher supervises this host through its standard input and output. */
    supervised: values.supervised,
    /** Internal: this start follows a planned restart. */
    resume: values.resume,
    /** Internal: the files the launcher considered (named path → granted real path or null). */
    scopeFiles: JSON.parse(values["scope-files"]) as Record<string, string | null>,
    /** Internal: this process is the printer process (the launcher starts it). */
    printer: values.printer,
    /** Internal: the printer process's socket the scoped host reaches its printer through. */
    printerSocket: values["printer-socket"] ?? null,
    /**
     * Internal: when the service (the launcher) started, ms since the epoch; the host's restarts
     * keep it (the uptime plugin's host uptime). Null: this process's start.
     */
    serviceStartedAt,
    help: values.help,
  };
}
