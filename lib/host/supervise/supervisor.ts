/**
 * The launcher's watch over the scoped host: it starts the host, starts it again at once when the
 * host asks (a planned restart), and treats any other end that is not a stop — a signal or a
 * non-zero exit code — as a crash: logged at ERROR with the last lines the host wrote, then a
 * restart after 1, 2, 4, 8, 16, 30, 30 … s (back to 1 s once a run lasted 60 s). While the host is
 * down, each plugin's failsafe applies when its delay has passed; a stop of the launcher while the
 * host is down applies the ones still due (a real stop, as the host's own would). Time runs on
 * the injected clock, so tests are fast.
 *
 * @module
 */
import type { Clock } from "../../clock.ts";
import { messageOf } from "../../error.ts";
import {
  createLogger,
  type DetailSink,
  formatLogTime,
  isStackLine,
  type Logger,
  type LogSink,
  newReference,
  sanitizeLogText,
} from "../../log.ts";
import type { FailsafeOutcome } from "../plugin.ts";

/** How one run of the host ended. */
export interface HostExit {
  /** Exit code (128 + n when signal n ended it). */
  code: number;
  /** The signal that ended the process, or null. */
  signal: Deno.Signal | null;
  /** The host's reason when it asked for a restart (a planned restart), else null. */
  restart: string | null;
  /** The last lines it wrote to standard error, oldest first. */
  tail: string[];
}

/** One run of the host process. */
export interface HostRun {
  pid: number;
  /** Resolves once the process has ended and its output is read. */
  ended: Promise<HostExit>;
  kill(signal: Deno.Signal): void;
}

/** A plugin's failsafe, due once the host has been down `delayMs`. */
export interface DownFailsafe {
  /** The plugin's name, for the log. */
  name: string;
  delayMs: number;
  apply(): Promise<FailsafeOutcome>;
}

/** Options of {@linkcode Supervisor}. */
export interface SupervisorOptions {
  /** Starts one run (`resumed` after a planned restart); calls `up` once the host listens. */
  start(resumed: boolean, up: () => void): Promise<HostRun>;
  /** The failsafes of the stored settings, asked when the host goes down. */
  failsafes(): Promise<DownFailsafe[]>;
  clock: Clock;
  /** Where the supervision log lines go. */
  sink: LogSink;
  /** What is supervised, in the log lines. @default "Plugin host" */
  name?: string;
  /**
   * Where a crash report's stack lines go (`errors.log`, ADMIN only): the report then keeps its
   * other last lines and names the stack by reference. @default none: the stack stays in it
   */
  details?: DetailSink;
}

/** The longest wait between two starts after crashes. */
export const BACKOFF_MAX_MS = 30_000;
/** A run this long resets the backoff. */
export const HEALTHY_RUN_MS = 60_000;
/** Lines of the host's standard error kept for the crash report, and their longest length. */
export const TAIL_LINES = 10;
export const TAIL_LINE_LENGTH = 500;

/** The wait before the next start after the `crashes`-th crash in a row (1-based). */
export function backoffMs(crashes: number): number {
  return Math.min(1000 * 2 ** Math.max(0, crashes - 1), BACKOFF_MAX_MS);
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/** Runs and restarts the host until it is stopped; see the module. */
export class Supervisor {
  readonly #o: SupervisorOptions;
  readonly #log: Logger;
  readonly #name: string;
  #run: HostRun | null = null;
  #stopSignal: Deno.Signal | null = null;
  #wake: (() => void) | null = null;
  /** When the host went down; null while it is up (or before its first crash). */
  #downSince: number | null = null;
  #due: { failsafe: DownFailsafe; cancel: () => void }[] = [];
  #applying: Promise<void>[] = [];

  constructor(options: SupervisorOptions) {
    this.#o = options;
    this.#name = options.name ?? "Plugin host";
    this.#log = createLogger("localbench.launcher", {
      sink: options.sink,
      now: () => new Date(options.clock.now()),
    });
  }

  /** Stops the host (forwarding `signal`) or the wait for its next start. */
  stop(signal: Deno.Signal = "SIGTERM"): void {
    this.#stopSignal ??= signal;
    this.#run?.kill(signal);
    this.#wake?.();
  }

  /** Runs until stopped (or until the host ends by itself with code 0); returns the exit code. */
  async run(): Promise<number> {
    const clock = this.#o.clock;
    let resumed = false;
    let crashes = 0;
    while (true) {
      const startedAt = clock.now();
      let upAt: number | null = null;
      const run = await this.#o.start(resumed, () => {
        upAt = clock.now();
        this.#up();
      });
      this.#run = run;
      this.#log.info(`${this.#name} started (pid ${run.pid})`);
      if (this.#stopSignal) run.kill(this.#stopSignal);
      const exit = await run.ended;
      this.#run = null;
      const crashed = exit.signal !== null || exit.code !== 0;
      if (this.#stopSignal || (exit.restart === null && !crashed)) {
        await this.#stopDown();
        return exit.code;
      }
      if (exit.restart !== null) {
        this.#log.info(`Restarting the ${this.#name.toLowerCase()}: ${exit.restart}`);
        resumed = true;
        continue;
      }
      const endedAt = clock.now();
      if (upAt !== null && endedAt - upAt >= HEALTHY_RUN_MS) crashes = 0;
      const delay = backoffMs(++crashes);
      this.#logCrash(exit, upAt === null ? null : endedAt - startedAt, delay);
      resumed = false;
      await this.#down(endedAt);
      if (!(await this.#sleep(delay))) {
        await this.#stopDown();
        return 0;
      }
    }
  }

  #logCrash(exit: HostExit, ranMs: number | null, delay: number): void {
    const how = exit.signal
      ? `killed by ${exit.signal} (exit code ${exit.code})`
      : `exit code ${exit.code}`;
    const what = ranMs === null
      ? `${this.#name} failed before it was up: ${how}`
      : `${this.#name} crashed after ${seconds(ranMs)}: ${how}`;
    const lines = exit.tail.length > 0
      ? `; its last lines on standard error:`
      : "; it wrote nothing to standard error";
    this.#log.error(`${what}; starting it again in ${seconds(delay)}${lines}`);
    const indent = (line: string) => `    ${sanitizeLogText(line, TAIL_LINE_LENGTH)}`;
    const stack = exit.tail.filter(isStackLine).length;
    const details = stack > 0 ? this.#o.details : undefined;
    // Continuation lines (indented, so never taken for a new entry) of the same ERROR entry; a
    // stack (file paths) goes to the detail sink, named by reference.
    for (const line of exit.tail) {
      if (!details || !isStackLine(line)) this.#o.sink("error", indent(line));
    }
    if (!details) return;
    const ref = newReference();
    this.#o.sink("error", `    (${stack} stack lines: ${details.name} ref ${ref})`);
    const time = formatLogTime(new Date(this.#o.clock.now()));
    details.write(
      `${time} - localbench.launcher - ERROR - ref ${ref}: ${sanitizeLogText(what)}`,
      exit.tail.map(indent),
    );
  }

  /** The host went down at `since` (unless it already was): the failsafes fall due. */
  async #down(since: number): Promise<void> {
    if (this.#downSince !== null) return;
    this.#downSince = since;
    let failsafes: DownFailsafe[] = [];
    try {
      failsafes = await this.#o.failsafes();
    } catch (err) {
      this.#log.error(`Cannot read the plugins' failsafes: ${messageOf(err)}`);
    }
    if (this.#downSince !== since) return;
    for (const failsafe of failsafes) {
      const wait = Math.max(0, since + failsafe.delayMs - this.#o.clock.now());
      const cancel = this.#o.clock.setTimeout(() => this.#apply(failsafe), wait);
      this.#due.push({ failsafe, cancel });
    }
  }

  /** The host listens again: failsafes not applied yet are no longer due. */
  #up(): void {
    if (this.#downSince === null) return;
    this.#log.info(
      `${this.#name} back after ${seconds(this.#o.clock.now() - this.#downSince)} down`,
    );
    this.#downSince = null;
    for (const { cancel } of this.#due.splice(0)) cancel();
  }

  #apply(failsafe: DownFailsafe): void {
    this.#due = this.#due.filter((d) => d.failsafe !== failsafe);
    const down = this.#downSince === null ? 0 : this.#o.clock.now() - this.#downSince;
    this.#log.warn(
      `${this.#name} down for ${seconds(down)}: applying the failsafe of ${failsafe.name}`,
    );
    this.#applying.push(
      failsafe.apply().then(
        ({ ok, message }) =>
          ok
            ? this.#log.warn(`Failsafe of ${failsafe.name} applied: ${message}`)
            : this.#log.error(`Failsafe of ${failsafe.name} failed: ${message}`),
        (err) => this.#log.error(`Failsafe of ${failsafe.name} failed: ${messageOf(err)}`),
      ),
    );
  }

  /** Stopping: a host that is down gets the failsafes still due now; waits for them all. */
  async #stopDown(): Promise<void> {
    for (const { failsafe, cancel } of [...this.#due]) {
      cancel();
      this.#apply(failsafe);
    }
    await Promise.all(this.#applying);
  }

  /** Waits `ms` on the clock; false when a stop cut the wait short. */
  #sleep(ms: number): Promise<boolean> {
    if (this.#stopSignal) return Promise.resolve(false);
    return new Promise((resolve) => {
      const cancel = this.#o.clock.setTimeout(() => {
        this.#wake = null;
        resolve(true);
      }, ms);
      this.#wake = () => {
        cancel();
        this.#wake = null;
        resolve(false);
      };
    });
  }
}
