/**
 * The web app's own flags; every other argument is a benchmark argument used as the default of
 * runs started from the page.
 *
 * @module
 */
import { parseOptions, splitOptions } from "../args.ts";
import { badRequest } from "../error.ts";
import { parseHostList } from "../http/mod.ts";

/** The web app's own options; `--no-build` only to say that it is gone. */
const OPTIONS = {
  port: { type: "string" },
  host: { type: "string" },
  token: { type: "string" },
  "allowed-hosts": { type: "string", multiple: true },
  "no-plugins": { type: "boolean" },
  dev: { type: "boolean" },
  "no-build": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** Parsed web app arguments. */
export interface WebArgs {
  port: number;
  hostname: string;
  token: string | null;
  /** Host names answered besides the listen address's (`--allowed-hosts a,b`). */
  allowedHosts: string[];
  plugins: boolean;
  /** Rebuild the islands (and the manifest) on every change of the sources (`--dev`). */
  dev: boolean;
  help: boolean;
  /** Benchmark arguments (defaults of every run). */
  benchArgs: string[];
}

/** Help text of `deno task webapp`. */
export const WEBAPP_USAGE = `Usage: deno task webapp -- [options] [benchmark arguments]
  --port N        listen port (0 = any free port)          [default: 8080]
  --host ADDR     listen address                           [default: 127.0.0.1]
  --token T       token: shutdown always needs it; bound beyond loopback, every route
                  [default: $LOCALBENCH_WEB_TOKEN, else generated and printed]
  --allowed-hosts LIST  host names to answer besides the listen address's, comma-separated
                  (DNS rebinding guard) [default: $LOCALBENCH_ALLOWED_HOSTS]
  --no-plugins    do not mount the plugin host
  --dev           rebuild the islands and the manifest whenever a source changes (the server
                  itself serves what \`deno task build\` wrote; restart it for new routes,
                  or run it under \`deno task dev\`)
  -h, --help      show this help
Benchmark arguments (e.g. --backend rest --base-url URL --runs 2) are the defaults of every
run started from the dashboard; --store URL (a postgres:// URL or a SQLite file) is the results
store the dashboard reads and its runs write [default: $LOCALBENCH_STORE, store.url, the data
folder's results.db].`;

/**
 * Parses the arguments.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseWebArgs } from "./web_args.ts";
 * const a = parseWebArgs(["--port", "0", "--runs", "2"]);
 * assert.ok(a.port === 0 && a.benchArgs.join(" ") === "--runs 2");
 * ```
 */
export function parseWebArgs(argv: string[]): WebArgs {
  const { own, rest } = splitOptions(argv, OPTIONS);
  const { values: v } = parseOptions({ args: own, options: OPTIONS });
  if (v["no-build"]) {
    throw badRequest(
      "Option '--no-build' was removed: the web app never builds at start " +
        "(it serves what 'deno task build' wrote; '--dev' rebuilds on changes)",
    );
  }
  const port = v.port ?? "8080";
  if (!/^\d+$/.test(port) || Number(port) > 65535) {
    throw badRequest(`Invalid --port '${port}': must be 0..65535`);
  }
  for (const name of ["host", "token", "allowed-hosts"] as const) {
    if ([v[name]].flat().includes("")) throw badRequest(`Option '--${name}' needs a value`);
  }
  return {
    port: Number(port),
    hostname: v.host ?? "127.0.0.1",
    token: v.token ?? null,
    allowedHosts: (v["allowed-hosts"] ?? []).flatMap(parseHostList),
    plugins: !v["no-plugins"],
    dev: v.dev ?? false,
    help: v.help ?? false,
    benchArgs: rest,
  };
}
