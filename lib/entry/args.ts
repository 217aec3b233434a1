/**
 * Argument handling of the entry script: short-flag clusters, its own flags (`--webapp`, `--help`,
 * `--debug`) and, for the web app, the address and token it is given, read without taking them
 * from the web app's arguments.
 *
 * @module
 */
import { parseOptions, splitOptions, withoutLeadingDashDash } from "../args.ts";

/** Letters of the entry script's own short flags that may be combined (`-wd`). */
const CLUSTER_LETTERS = new Set(["w", "d", "h"]);

const OWN = {
  webapp: { type: "boolean", short: "w" },
  help: { type: "boolean", short: "h" },
  debug: { type: "boolean", short: "d" },
} as const;

/** The web app's options the entry script reads (it starts the tray at that address). */
const WEB = {
  port: { type: "string", short: "p" },
  host: { type: "string" },
  token: { type: "string" },
} as const;

/** What the entry script reads from its arguments. */
export interface EntryArgs {
  webapp: boolean;
  help: boolean;
  debug: boolean;
  /** The web port, or null when none (or none in 1..65535) is given. */
  port: number | null;
  host: string | null;
  token: string | null;
  /** The arguments for the program it runs: all but `--webapp`, clusters split. */
  rest: string[];
}

/** Expands clusters of the entry script's short flags: `-wd` → `-w -d`. */
export function expandClusters(argv: string[]): string[] {
  return argv.flatMap((arg) => {
    if (!/^-[a-z]{2,}$/.test(arg)) return [arg];
    const letters = [...arg.slice(1)];
    return letters.every((l) => CLUSTER_LETTERS.has(l)) ? letters.map((l) => `-${l}`) : [arg];
  });
}

/**
 * Reads the entry script's arguments (a leading `--` dropped).
 *
 * @throws {UsageError} when one of the options it reads lacks its value (`--port` last).
 */
export function parseEntryArgs(argv: string[]): EntryArgs {
  const args = expandClusters(withoutLeadingDashDash(argv));
  const { values } = parseOptions({ args: splitOptions(args, OWN).own, options: OWN });
  const rest = args.filter((a) => a !== "--webapp" && a !== "-w");
  const web = values.webapp
    ? parseOptions({ args: splitOptions(rest, WEB).own, options: WEB })
    : null;
  const port = web?.values.port ?? "";
  return {
    webapp: values.webapp ?? false,
    help: values.help ?? false,
    debug: values.debug ?? false,
    port: /^\d{1,5}$/.test(port) && +port >= 1 && +port <= 65535 ? +port : null,
    host: web?.values.host || null,
    token: web?.values.token ?? null,
    rest,
  };
}
