/**
 * The web app's own flags; every other argument is a benchmark argument used as the default of
 * runs started from the page.
 *
 * @module
 */
import { badRequest } from "../error.ts";
import { parseHostList } from "../http/mod.ts";

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
run started from the dashboard.`;

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
  const out: WebArgs = {
    port: 8080,
    hostname: "127.0.0.1",
    token: null,
    allowedHosts: [],
    plugins: true,
    dev: false,
    help: false,
    benchArgs: [],
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [name, inline] = arg.startsWith("--") && arg.includes("=")
      ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
      : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === "") throw badRequest(`Option '${name}' needs a value`);
      return v;
    };
    if (name === "--port") {
      const raw = value();
      const port = Number(raw);
      if (!/^\d+$/.test(raw) || port > 65535) {
        throw badRequest(`Invalid --port '${raw}': must be 0..65535`);
      }
      out.port = port;
    } else if (name === "--host") out.hostname = value();
    else if (name === "--token") out.token = value();
    else if (name === "--allowed-hosts") out.allowedHosts.push(...parseHostList(value()));
    else if (name === "--no-plugins") out.plugins = false;
    else if (name === "--dev") out.dev = true;
    else if (name === "--no-build") {
      throw badRequest(
        "Option '--no-build' was removed: the web app never builds at start " +
          "(it serves what 'deno task build' wrote; '--dev' rebuilds on changes)",
      );
    } else if (name === "--help" || name === "-h") out.help = true;
    else out.benchArgs.push(arg);
  }
  return out;
}
