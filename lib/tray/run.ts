/**
 * The tray program: parse arguments, read the dashboard's status once, open the icon, and let
 * the {@linkcode TrayController} run until Quit. Exit codes: 0 after Quit (or when the icon went
 * away), 1 when no tray can be shown, 2 on bad arguments.
 *
 * @module
 */
import { type Clock, systemClock } from "../clock.ts";
import { AppError, exitCodeOf, messageOf } from "../error.ts";
import { createLogger, type LogSink, stderrSink } from "../log.ts";
import type { TrayAdapter, TrayFactory } from "./adapter.ts";
import { parseTrayArgs, TRAY_HELP, type TrayOptions } from "./args.ts";
import { createDashboardClient } from "./dashboard_api.ts";
import type { TrayClaim } from "./instance.ts";
import { TrayController } from "./controller.ts";
import { menuOf } from "./menu.ts";
import { viewOf } from "./status.ts";

/** What the tray program needs from the outside world. */
export interface TrayDeps {
  env(name: string): string | undefined;
  /** Builds the icon factory for the parsed options (the systray2 one in production). */
  factory(options: TrayOptions): TrayFactory;
  /** Opens a URL in the desktop's browser. */
  openUrl(url: string): Promise<void>;
  out(text: string): void;
  err(text: string): void;
  /** fetch for the dashboard. @default globalThis.fetch */
  fetch?: typeof fetch;
  /** Clock of the poller. @default systemClock */
  clock?: Clock;
  /** Log destination. @default stderrSink */
  sink?: LogSink;
  /** Called with the open icon (the entry point closes it on SIGINT/SIGTERM). */
  onOpen?(adapter: TrayAdapter): void;
  /**
   * Claims the tray of a URL (one icon per URL); `owner: false` names the tray that has it.
   * @default every tray is the owner
   */
  claim?(url: string): Promise<TrayClaim>;
  /** Settles when standard input closes (`--exit-with-stdin`). @default never */
  stdinClosed?(): Promise<void>;
}

/** Runs the tray with `argv`; resolves to the exit code. */
export async function runTray(argv: string[], deps: TrayDeps): Promise<number> {
  let opts: TrayOptions;
  try {
    opts = parseTrayArgs(argv, deps.env);
  } catch (err) {
    deps.err(`localbench tray: error: ${messageOf(err)}\nTry --help.`);
    return exitCodeOf(err);
  }
  if (opts.help) {
    deps.out(TRAY_HELP);
    return 0;
  }
  const claim = await (deps.claim?.(opts.url) ??
    Promise.resolve<TrayClaim>({ owner: true, release: () => Promise.resolve() }));
  if (!claim.owner) {
    const who = claim.pid === null ? "" : ` (process ${claim.pid})`;
    deps.out(`A tray already watches ${opts.url}${who}; it stays, this one ends`);
    return 0;
  }
  try {
    return await runOwnedTray(opts, deps);
  } finally {
    await claim.release();
  }
}

async function runOwnedTray(opts: TrayOptions, deps: TrayDeps): Promise<number> {
  const log = createLogger("localbench.tray", {
    level: opts.debug ? "debug" : "info",
    sink: deps.sink ?? stderrSink,
  });
  // With --exit-with-stdin the tray lives as long as whoever holds its standard input.
  let ended = false;
  let adapter: TrayAdapter | null = null;
  if (opts.exitWithStdin && deps.stdinClosed) {
    void deps.stdinClosed().then(() => {
      ended = true;
      log.debug("Standard input closed: the tray ends");
      void adapter?.close();
    });
  }
  const clock = deps.clock ?? systemClock;
  const client = createDashboardClient(opts.url, {
    token: opts.token,
    clock,
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
  });
  const initial = await client.status();
  log.debug(`Dashboard ${opts.url}: ${initial}`);
  if (ended) return 0;
  try {
    adapter = await deps.factory(opts)(menuOf(viewOf(initial)));
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    deps.err(`localbench tray: ${err.message}`);
    return 1;
  }
  if (ended) {
    await adapter.close();
    return 0;
  }
  deps.onOpen?.(adapter);
  const controller = new TrayController(client, adapter, {
    url: opts.url,
    openUrl: deps.openUrl,
    clock,
    log,
    initial,
  });
  await controller.run();
  await adapter.close();
  log.info("Tray closed");
  return 0;
}
