/**
 * Prints a G-code file through a {@linkcode PrinterDriver}: reads it as a stream and sends one
 * acknowledged command at a time (line numbers and checksums are the driver's), with pause,
 * resume, cancel and restart, progress by bytes and lines, and the job's scripts. No HTTP: it
 * lives where the printer connection lives.
 *
 * States (`PrinterState`): OPERATIONAL (idle, a file may be selected) → PRINTING → PAUSING →
 * PAUSED → RESUMING → PRINTING …; CANCELLING → OPERATIONAL; FINISHING → OPERATIONAL; ERROR when
 * the driver failed (halt, disconnect, timeout) or the file could not be read, with the reason.
 *
 * @module
 */
import { type Clock, systemClock } from "../../clock.ts";
import { ConflictError, messageOf } from "../../error.ts";
import type { DriverEvent, PrinterDriver } from "../driver.ts";
import { PrinterDisconnectedError, PrinterHaltedError } from "../marlin/mod.ts";
import type { JobStatus, PrinterState } from "../printer.ts";
import { gcodeLines } from "./gcode_lines.ts";
import { JobProgress } from "./progress.ts";
import { DEFAULT_JOB_SCRIPTS, type JobScripts } from "./scripts.ts";

/** A file to print: its name and size as listed, and how to read it from its beginning. */
export interface JobFile {
  name: string;
  size: number;
  /** Opens the file; `size` is that of the opened file. Cancelling `readable` closes it. */
  open(): Promise<{ size: number; readable: ReadableStream<Uint8Array> }>;
}

/** What a runner tells its listeners. */
export type JobEvent =
  /** The state changed; `error` says why a job ended in ERROR (null otherwise). */
  | { type: "state"; state: PrinterState; previous: PrinterState; error: string | null }
  /** The progress moved (at most per whole percent or per `progressIntervalMs`). */
  | { type: "progress"; job: JobStatus };

/** Options of {@linkcode JobRunner}. */
export interface JobRunnerOptions {
  /** Timers and time stamps. @default systemClock */
  clock?: Clock;
  /** The job's scripts. @default DEFAULT_JOB_SCRIPTS */
  scripts?: Partial<JobScripts>;
  /** Least time between two progress events within one percent. @default 1000 */
  progressIntervalMs?: number;
  /** Longest line of a file before its comment, in bytes. @default 4096 */
  maxLineBytes?: number;
}

/** What wakes a paused print. */
type Wake = "resume" | "cancel" | "restart" | Error;

/** A print stopped on purpose (cancel, restart): the loop unwinds without an error. */
class Stop {
  constructor(readonly restart: boolean) {}
}

/** The states of a print under way. */
export const ACTIVE_JOB_STATES: readonly PrinterState[] = [
  "PRINTING",
  "PAUSING",
  "PAUSED",
  "RESUMING",
  "CANCELLING",
  "FINISHING",
];

/**
 * Whether `job` is printing the uploaded file `name` (it may then be neither replaced nor
 * deleted).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { printsFile } from "./runner.ts";
 * const progress = { completion: 0, filepos: 0, lines: 0, printTime: 0, printTimeLeft: null };
 * const file = { name: "a.gcode", size: 10, origin: "local" as const };
 * assert.ok(printsFile({ state: "PAUSED", file, progress }, "a.gcode"));
 * assert.ok(!printsFile({ state: "OPERATIONAL", file, progress }, "a.gcode"));
 * ```
 */
export function printsFile(job: JobStatus, name: string): boolean {
  return ACTIVE_JOB_STATES.includes(job.state) && job.file?.origin === "local" &&
    job.file.name === name;
}

/** Prints the selected file through one driver; one print at a time. */
export class JobRunner {
  readonly #driver: PrinterDriver;
  readonly #clock: Clock;
  readonly #progress: JobProgress;
  readonly #intervalMs: number;
  readonly #maxLineBytes: number | undefined;
  #scripts: JobScripts;
  #listeners = new Set<(event: JobEvent) => void>();
  #state: PrinterState = "OPERATIONAL";
  #error: string | null = null;
  #file: JobFile | null = null;
  #size = 0;
  #starting = false;
  /** What the print loop does at its next line: pause or stop. */
  #wanted: "pause" | "cancel" | null = null;
  #wake: ((why: Wake) => void) | null = null;
  #done: Promise<void> = Promise.resolve();

  constructor(driver: PrinterDriver, options: JobRunnerOptions = {}) {
    this.#driver = driver;
    this.#clock = options.clock ?? systemClock;
    this.#progress = new JobProgress(this.#clock);
    this.#intervalMs = options.progressIntervalMs ?? 1000;
    this.#maxLineBytes = options.maxLineBytes;
    this.#scripts = { ...DEFAULT_JOB_SCRIPTS, ...options.scripts };
  }

  /** Where the job stands. */
  get state(): PrinterState {
    return this.#state;
  }

  /** Why the last print ended in ERROR; null otherwise. */
  get error(): string | null {
    return this.#error;
  }

  /** Whether a print is under way (printing, paused, or on its way in or out of either). */
  get active(): boolean {
    return ACTIVE_JOB_STATES.includes(this.#state) || this.#starting;
  }

  /** The job as `GET /api/job` shows it. */
  status(): JobStatus {
    const file = this.#file;
    return {
      state: this.#state,
      file: file && { name: file.name, size: this.#size, origin: "local" },
      progress: this.#progress.status(),
    };
  }

  /** Replaces scripts (from changed settings); a print under way uses them from its next one. */
  setScripts(scripts: Partial<JobScripts>): void {
    this.#scripts = { ...this.#scripts, ...scripts };
  }

  /** Subscribes to the runner's events; returns the unsubscribe function. */
  subscribe(listener: (event: JobEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Resolves once the print under way (if any) has ended, in OPERATIONAL or ERROR. */
  settled(): Promise<void> {
    return this.#done;
  }

  /**
   * Selects the file the next {@linkcode start} prints (null: none); its progress is cleared.
   *
   * @throws {ConflictError} while a print is under way.
   */
  select(file: JobFile | null): void {
    this.#refuseWhileActive("select a file");
    this.#file = file;
    this.#size = file?.size ?? 0;
    this.#progress.clear();
  }

  /**
   * Opens the selected file and starts printing it from its beginning; resolves once PRINTING.
   *
   * @throws {ConflictError} while a print is under way, with no file selected or a driver that
   * is not operational; what the file's `open()` throws (`NotFoundError`: it was deleted).
   */
  async start(): Promise<void> {
    this.#refuseWhileActive("start a print");
    const file = this.#file;
    if (!file) throw new ConflictError("Cannot start a print: no file is selected");
    if (this.#driver.state !== "operational") {
      throw new ConflictError(
        `Cannot start a print: the printer is not operational (${this.#driver.state})`,
      );
    }
    this.#starting = true;
    let opened;
    try {
      opened = await file.open();
    } finally {
      this.#starting = false;
    }
    this.#error = null;
    this.#wanted = null;
    this.#begin(opened.size);
    this.#done = this.#run(file, opened.readable);
  }

  /**
   * Pauses after the line in flight (then the pause script); nothing when pausing or paused.
   *
   * @throws {ConflictError} when no print is under way, or it is resuming, cancelling or
   * finishing.
   */
  pause(): void {
    if (this.#state === "PAUSING" || this.#state === "PAUSED") return;
    this.#expect("pause", "PRINTING");
    this.#wanted = "pause";
    this.#setState("PAUSING");
  }

  /**
   * Resumes a paused print (the resume script, then its next line); nothing when printing.
   *
   * @throws {ConflictError} when no print is paused (pausing: once it is paused).
   */
  resume(): void {
    if (this.#state === "PRINTING" || this.#state === "RESUMING") return;
    this.#expect("resume", "PAUSED");
    this.#setState("RESUMING");
    this.#wake?.("resume");
  }

  /**
   * Stops sending after the line in flight, then sends the cancel script; nothing when
   * cancelling already.
   *
   * @throws {ConflictError} when no print is under way, or it is finishing.
   */
  cancel(): void {
    if (this.#state === "CANCELLING") return;
    this.#expect("cancel", "PRINTING", "PAUSING", "PAUSED", "RESUMING");
    this.#wanted = "cancel";
    this.#setState("CANCELLING");
    this.#wake?.("cancel");
  }

  /**
   * Prints a paused job again from the file's beginning (no cancel script).
   *
   * @throws {ConflictError} when no print is paused.
   */
  restart(): void {
    this.#expect("restart", "PAUSED");
    this.#wake?.("restart");
  }

  #expect(action: string, ...states: PrinterState[]): void {
    if (states.includes(this.#state)) return;
    throw new ConflictError(
      this.active
        ? `Cannot ${action} the print: it is ${this.#state.toLowerCase()}`
        : `Cannot ${action}: no print is under way`,
      { code: "invalid_transition" },
    );
  }

  #refuseWhileActive(what: string): void {
    if (!this.active) return;
    throw new ConflictError(
      `Cannot ${what}: a print is under way (${this.#state.toLowerCase()})`,
      { code: "busy" },
    );
  }

  #begin(size: number): void {
    this.#size = size;
    this.#progress.start(size);
    this.#setState("PRINTING");
    this.#report();
  }

  async #run(file: JobFile, readable: ReadableStream<Uint8Array>): Promise<void> {
    const unsubscribe = this.#driver.subscribe((event) => this.#onDriver(event));
    try {
      for (;;) {
        try {
          await this.#printLines(readable);
        } catch (err) {
          if (!(err instanceof Stop)) throw err;
          if (!err.restart) {
            this.#progress.end();
            await this.#sendScript("cancel");
            this.#setState("OPERATIONAL");
            return;
          }
          const opened = await file.open();
          readable = opened.readable;
          this.#begin(opened.size);
          continue;
        }
        this.#progress.complete();
        this.#report();
        this.#setState("FINISHING");
        await this.#sendScript("finish");
        this.#progress.end();
        this.#setState("OPERATIONAL");
        return;
      }
    } catch (err) {
      this.#progress.end();
      this.#error = messageOf(err);
      this.#setState("ERROR");
    } finally {
      unsubscribe();
      this.#wake = null;
      await readable.cancel().catch(() => {}); // closes the file when the loop did not
    }
  }

  /** Sends the file's commands; throws `Stop` when cancelled or restarted. */
  async #printLines(readable: ReadableStream<Uint8Array>): Promise<void> {
    for await (const batch of gcodeLines(readable, { maxLineBytes: this.#maxLineBytes })) {
      for (const line of batch) {
        if (this.#wanted) await this.#checkpoint();
        await this.#driver.send(line.command);
        this.#progress.advance(line.end);
        this.#report();
      }
    }
    await this.#checkpoint();
  }

  /** Between two lines: stops when cancelled; pauses (and waits) when asked to. */
  async #checkpoint(): Promise<void> {
    if (this.#wanted === "cancel") throw new Stop(false);
    if (this.#wanted !== "pause") return;
    this.#wanted = null;
    await this.#sendScript("pause");
    if (this.#wanted === "cancel") throw new Stop(false);
    this.#progress.pause();
    // Armed before the state changes: a listener may resume or cancel at once.
    const woken = new Promise<Wake>((resolve) => this.#wake = resolve);
    this.#setState("PAUSED");
    const why = await woken;
    this.#wake = null;
    if (why instanceof Error) throw why;
    if (why !== "resume") throw new Stop(why === "restart");
    await this.#sendScript("resume");
    this.#progress.resume();
    if (this.#wanted === "cancel") throw new Stop(false);
    this.#setState("PRINTING");
  }

  async #sendScript(name: keyof JobScripts): Promise<void> {
    for (const line of this.#scripts[name]) await this.#driver.send(line);
  }

  /** A paused print learns that the printer halted or went away. */
  #onDriver(event: DriverEvent): void {
    if (event.type !== "state" || !this.#wake) return;
    const message = event.message ?? "The connection to the printer closed";
    if (event.state === "halted") {
      this.#wake(new PrinterHaltedError(`The printer halted: ${message}`));
    } else if (event.state === "closed") this.#wake(new PrinterDisconnectedError(message));
  }

  #report(): void {
    if (this.#progress.due(this.#intervalMs)) this.#emit({ type: "progress", job: this.status() });
  }

  #setState(state: PrinterState): void {
    const previous = this.#state;
    if (state === previous) return;
    this.#state = state;
    this.#emit({ type: "state", state, previous, error: state === "ERROR" ? this.#error : null });
  }

  #emit(event: JobEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // One failing listener never stops the print or the other listeners.
      }
    }
  }
}
