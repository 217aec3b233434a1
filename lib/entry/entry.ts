/**
 * The entry script's rules (seed: "Entry script rules"):
 * 1. `--help`/`-h` → extended help, then the benchmark's help; exit 0.
 * 2. `--webapp`/`-w` → drop the flag, take the web port from the arguments or a free local port,
 *    start the tray at the dashboard URL with the dashboard's token (the configured one, or one
 *    generated here and given to both), run the web app with the rest, exit with its status.
 * 3. otherwise → start the tray at `http://localhost:1234`, run the benchmark with every argument.
 * A missing web app or benchmark file → an error and exit 1. The tray never blocks or fails a run,
 * and it ends when the program it was started for ends (also when that program refuses its
 * arguments); a tray already watching the URL is reused (the tray checks: lib/tray/instance.ts).
 *
 * @module
 */
import { join } from "node:path";
import { randomToken } from "../http/mod.ts";
import { UsageError } from "../error.ts";
import { type EntryArgs, parseEntryArgs } from "./args.ts";
import { urlHost } from "../net.ts";

/** The tray URL used when the benchmark runs without the web app (LM Studio's port). */
export const BENCH_TRAY_URL = "http://localhost:1234";

/** What the entry script needs from the outside world (injected for tests). */
export interface EntryDeps {
  /** Folder holding `cli.ts`, `webapp.ts` and `tray.ts`. */
  root: string;
  exists(path: string): Promise<boolean>;
  /**
   * Runs a Deno program with the arguments (and extra environment variables), standard I/O
   * inherited; resolves to its exit code.
   */
  runProgram(file: string, args: string[], env?: Record<string, string>): Promise<number>;
  /**
   * Starts the tray in the background (with the dashboard's token) for as long as the program
   * runs; must neither throw nor block. Null when no tray was started (no desktop).
   */
  startTray(url: string, debug: boolean, token?: string): TrayHandle | null;
  /** Reads an environment variable. @default none set */
  env?(name: string): string | undefined;
  /** Generates the dashboard token when none is configured. @default randomToken */
  newToken?(): string;
  freePort(): Promise<number>;
  /** The benchmark's own help text. */
  benchmarkHelp(): Promise<string>;
  out(text: string): void;
  err(text: string): void;
}

/** The tray the entry script started: stopped when the program it was started for ends. */
export interface TrayHandle {
  stop(): Promise<void>;
}

/** Runs a program with its tray; the tray ends with the program, however the program ends. */
async function withTray(
  tray: TrayHandle | null,
  run: () => Promise<number>,
): Promise<number> {
  try {
    return await run();
  } finally {
    await tray?.stop();
  }
}

/** Extended help of the entry script. */
export const ENTRY_HELP = `localbench — benchmark local language models; dashboard and plugin host

Usage:
  deno task start [benchmark options]     run a benchmark (tray at ${BENCH_TRAY_URL})
  deno task start --webapp [web options]  run the dashboard (-w); --port N, --host H
  deno task start --help                  this help (-h)

Modes:
  no --webapp   the benchmark runs with every argument; exit status is the benchmark's
  --webapp, -w  the web dashboard and plugin host run; a free local port is chosen unless
                --port/-p is given; the tray controller follows the dashboard
  -d, --debug   verbose logging (short flags combine: -wd)

Environment:
  LOCALBENCH_CONFIG_DIR   user configuration folder (default ~/.config/localbench)
  LOCALBENCH_DATA_DIR     data folder: results.db, results/, logs/, host/ (default ~/.local/share/localbench)

The benchmark's options follow.
`;

/** Runs the entry script's rules and returns the exit code. */
export async function runEntry(argv: string[], deps: EntryDeps): Promise<number> {
  let args: EntryArgs;
  try {
    args = parseEntryArgs(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    deps.err(`localbench: error: ${err.message}`);
    return 2;
  }
  if (args.help) {
    deps.out(ENTRY_HELP);
    deps.out(await deps.benchmarkHelp());
    return 0;
  }
  const webArgs = args.rest;
  if (args.webapp) {
    const file = join(deps.root, "webapp.ts");
    if (!(await deps.exists(file))) {
      deps.err(`localbench: error: the web app is missing: ${file}`);
      return 1;
    }
    let port = args.port;
    if (port === null) {
      port = await deps.freePort();
      webArgs.push("--port", String(port));
    }
    const host = args.host ?? "127.0.0.1";
    const shown = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host;
    // Shutdown always needs the token: the tray gets the configured one, or one made here and
    // handed to both through the environment (never on a command line other users can read).
    const given = args.token ?? deps.env?.("LOCALBENCH_WEB_TOKEN") ?? null;
    const token = given ?? (deps.newToken ?? randomToken)();
    const tray = deps.startTray(
      `http://${urlHost(shown)}:${port}`,
      args.debug,
      token,
    );
    return await withTray(tray, () =>
      deps.runProgram(
        file,
        webArgs,
        given === null ? { LOCALBENCH_WEB_TOKEN: token } : {},
      ));
  }
  const file = join(deps.root, "cli.ts");
  if (!(await deps.exists(file))) {
    deps.err(`localbench: error: the benchmark is missing: ${file}`);
    return 1;
  }
  const tray = deps.startTray(BENCH_TRAY_URL, args.debug);
  return await withTray(tray, () => deps.runProgram(file, args.rest));
}
