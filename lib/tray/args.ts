/**
 * Command-line arguments of the tray controller (`tray.ts`).
 *
 * @module
 */
import { parseOptions } from "../args.ts";
import { badRequest } from "../error.ts";

/** The URL the tray watches when none is given (the packaged launcher's and the benchmark's). */
export const DEFAULT_TRAY_URL = "http://localhost:1234";

/** Environment variable holding the dashboard's bearer token. */
export const TOKEN_ENV = "LOCALBENCH_DASHBOARD_TOKEN";

/** Parsed tray options. */
export interface TrayOptions {
  help: boolean;
  /** Dashboard URL (http or https). */
  url: string;
  /** Verbose logging. */
  debug: boolean;
  /** Bearer token for the dashboard, if any. */
  token: string | undefined;
  /** How long to wait for a display, a tray host and the tray helper, in milliseconds. */
  timeoutMs: number;
  /** End when standard input closes (the entry script holds it open while its program runs). */
  exitWithStdin: boolean;
}

/** Help text of the tray controller. */
export const TRAY_HELP = `localbench tray — a tray icon that controls the dashboard

Usage: deno task tray [--url URL] [--token TOKEN] [--timeout SECONDS] [--exit-with-stdin] [--debug]

Options:
  --url URL          dashboard to control (default ${DEFAULT_TRAY_URL})
  --token TOKEN      bearer token of the dashboard (default: $${TOKEN_ENV},
                     else $LOCALBENCH_WEB_TOKEN)
  --timeout SECONDS  wait this long for a display, a tray host and the tray helper (default 10)
  --exit-with-stdin  end when standard input closes (how the entry script ties the tray to the
                     benchmark or dashboard it started it for)
  -d, --debug        verbose logging
  -h, --help         this help

The icon is gray when idle, green while running, yellow while paused and red when the
dashboard cannot be reached; it polls <url>/api/status every 3 seconds. One tray per URL: when a
tray already watches the URL, this one says so and ends (exit 0). Exit status: 0 after Quit,
1 when no tray can be shown (no display, no tray host, helper failed), 2 on bad arguments.
`;

/**
 * Parses the tray's arguments.
 *
 * @throws {UsageError} on an unknown flag, a missing value, a bad URL or a bad timeout
 */
export function parseTrayArgs(
  argv: string[],
  env: (name: string) => string | undefined = () => undefined,
): TrayOptions {
  const opts: TrayOptions = {
    help: false,
    url: DEFAULT_TRAY_URL,
    debug: false,
    token: env(TOKEN_ENV) || env("LOCALBENCH_WEB_TOKEN") || undefined,
    timeoutMs: 10_000,
    exitWithStdin: false,
  };
  const { values } = parseOptions({
    args: argv,
    options: {
      help: { type: "boolean", short: "h" },
      debug: { type: "boolean", short: "d" },
      url: { type: "string" },
      "exit-with-stdin": { type: "boolean" },
      token: { type: "string" },
      timeout: { type: "string" },
    },
    strict: true,
  });
  if (values.help) opts.help = true;
  if (values.debug) opts.debug = true;
  if (values.url !== undefined) opts.url = checkUrl(values.url);
  if (values["exit-with-stdin"]) opts.exitWithStdin = true;
  if (values.token !== undefined) opts.token = values.token || undefined;
  if (values.timeout !== undefined) {
    const text = values.timeout;
    const seconds = Number(text);
    if (!/^\d+(\.\d+)?$/.test(text) || seconds <= 0 || seconds > 3600) {
      throw badRequest(`Cannot parse arguments: --timeout '${text}' is not 0 < seconds <= 3600`);
    }
    opts.timeoutMs = Math.round(seconds * 1000);
  }
  return opts;
}

function checkUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw badRequest(`Cannot parse arguments: --url '${text}' is not a URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw badRequest(`Cannot parse arguments: --url '${text}' is not http or https`);
  }
  return url.href.replace(/\/$/, "");
}
