/**
 * The tray controller (seed: "Tray controller behaviour"): polls `/api/status` every 3 seconds,
 * renders the state, and runs the menu actions. Start → start; Pause/Resume → pause or resume by
 * the current state; Stop → stop; Quit → shutdown (falling back to stop when shutdown fails and a
 * benchmark is active), then polling stops and {@linkcode TrayController.run} returns.
 *
 * @module
 */
import { type Clock, systemClock } from "../clock.ts";
import { messageOf } from "../error.ts";
import { createLogger, type Logger } from "../log.ts";
import type { TrayAdapter } from "./adapter.ts";
import type { ControlPath, DashboardClient } from "./dashboard_api.ts";
import { isAction, type MenuAction, menuOf } from "./menu.ts";
import { type TrayState, type TrayView, viewOf } from "./status.ts";

/** The poll interval of the seed's limits table. */
export const POLL_INTERVAL_MS = 3000;

/** Options of {@linkcode TrayController}. */
export interface TrayControllerOptions {
  /** The dashboard URL (opened by "Open dashboard"). */
  url: string;
  /** Opens a URL in the desktop's browser. */
  openUrl: (url: string) => Promise<void>;
  /** Clock of the poller. @default systemClock */
  clock?: Clock;
  /** Poll interval in milliseconds. @default 3000 */
  intervalMs?: number;
  /** Logger. @default createLogger("localbench.tray") */
  log?: Logger;
  /** The state the adapter already shows. @default undefined (the first poll renders) */
  initial?: TrayState;
}

/** Drives one tray icon from the dashboard's status. */
export class TrayController {
  #client: DashboardClient;
  #adapter: TrayAdapter;
  #opts: TrayControllerOptions;
  #log: Logger;
  #view: TrayView = viewOf("error");
  #rendered = "";
  #polling: Promise<void> | null = null;
  #cancelTimer: (() => void) | null = null;
  #quitting = false;
  #finish!: () => void;
  #done = new Promise<void>((resolve) => (this.#finish = resolve));

  constructor(client: DashboardClient, adapter: TrayAdapter, options: TrayControllerOptions) {
    this.#client = client;
    this.#adapter = adapter;
    this.#opts = options;
    this.#log = options.log ?? createLogger("localbench.tray");
    if (options.initial) {
      this.#view = viewOf(options.initial);
      this.#rendered = JSON.stringify(menuOf(this.#view));
    }
  }

  /** The state shown now. */
  get state(): TrayState {
    return this.#view.state;
  }

  /** Polls now and every interval until Quit (or the icon goes away); resolves then. */
  async run(): Promise<void> {
    this.#adapter.onClick((id) => {
      if (isAction(id)) void this.click(id);
    });
    this.#adapter.closed.then(() => this.#end(), () => this.#end());
    const clock = this.#opts.clock ?? systemClock;
    this.#cancelTimer = clock.setInterval(
      () => void this.poll(),
      this.#opts.intervalMs ?? POLL_INTERVAL_MS,
    );
    await this.poll();
    await this.#done;
  }

  /** Reads the status once and renders it (a poll already under way is shared). */
  poll(): Promise<void> {
    this.#polling ??= (async () => {
      try {
        const state = await this.#client.status();
        if (!this.#quitting) await this.#show(state);
      } catch (err) {
        this.#log.warn(`Cannot update the tray: ${messageOf(err)}`);
      } finally {
        this.#polling = null;
      }
    })();
    return this.#polling;
  }

  /** Runs a menu action; actions that are disabled in the current state are ignored. */
  async click(action: MenuAction): Promise<void> {
    if (this.#quitting) return;
    const view = this.#view;
    this.#log.debug(`Menu: ${action} (state ${view.state})`);
    switch (action) {
      case "start":
        if (view.start) await this.#control("benchmark/start");
        return;
      case "pause":
        if (view.pause) {
          await this.#control(view.state === "paused" ? "benchmark/resume" : "benchmark/pause");
        }
        return;
      case "stop":
        if (view.stop) await this.#control("benchmark/stop");
        return;
      case "open":
        try {
          await this.#opts.openUrl(this.#opts.url);
        } catch (err) {
          this.#log.warn(`Cannot open the dashboard ${this.#opts.url}: ${messageOf(err)}`);
        }
        return;
      case "quit":
        await this.#quit();
        return;
    }
  }

  async #control(path: ControlPath): Promise<void> {
    try {
      await this.#client.control(path);
    } catch (err) {
      this.#log.warn(messageOf(err));
    }
    await this.poll();
  }

  async #quit(): Promise<void> {
    this.#quitting = true;
    this.#cancelTimer?.();
    const active = this.#view.state === "running" || this.#view.state === "paused";
    try {
      await this.#client.control("system/shutdown");
    } catch (err) {
      this.#log.warn(messageOf(err));
      if (active) {
        await this.#client.control("benchmark/stop").catch((e) => this.#log.warn(messageOf(e)));
      }
    }
    await this.#adapter.close().catch((err) => this.#log.warn(messageOf(err)));
    this.#end();
  }

  #end(): void {
    this.#quitting = true;
    this.#cancelTimer?.();
    this.#finish();
  }

  async #show(state: TrayState): Promise<void> {
    if (state !== this.#view.state) this.#log.info(`Dashboard status: ${state}`);
    this.#view = viewOf(state);
    const menu = menuOf(this.#view);
    const key = JSON.stringify(menu);
    if (key === this.#rendered) return;
    await this.#adapter.render(menu);
    this.#rendered = key;
  }
}
