/**
 * The printer service's job side: the file selected for the next print (it stays across
 * connections), the connection's job runner and SD card watch, and the print a lost line cut short
 * (shown while offline). The service owns the connection; this owns what is printed on it.
 *
 * @module
 */
import type { Clock } from "../clock.ts";
import { ConflictError } from "../error.ts";
import type { PrinterDriver } from "./driver.ts";
import { JobRunner, type JobScripts, SdCardJob } from "./job/mod.ts";
import type { JobStatus, PrinterState } from "./printer.ts";
import { UploadsFolder } from "./uploads.ts";

/** What the jobs tell the service. */
export interface JobsListener {
  /** The print's progress. */
  progress(job: JobStatus): void;
  /** The SD card's print changed: the job is to be shown again. */
  changed(): void;
  /** The job runner moved to `state` (printing, paused, failed with `error` …). */
  state(state: PrinterState, error: string | null): void;
}

/** Options of {@linkcode PrinterJobs}. */
export interface PrinterJobsOptions {
  clock: Clock;
  /** The folder of the uploaded files `start` prints. */
  uploadsDir?: string;
  /** The job's scripts (cancel: heaters, fan and motors off). */
  scripts?: Partial<JobScripts>;
}

const NO_PROGRESS = {
  completion: null,
  filepos: null,
  lines: null,
  printTime: null,
  printTimeLeft: null,
};

/** The jobs of one printer, across its connections. */
export class PrinterJobs {
  readonly #options: PrinterJobsOptions;
  readonly #uploads: UploadsFolder | null;
  #runner: JobRunner | null = null;
  #sd: SdCardJob | null = null;
  #selected: string | null = null;
  #cutShort: JobStatus | null = null;

  constructor(options: PrinterJobsOptions) {
    this.#options = options;
    this.#uploads = options.uploadsDir ? new UploadsFolder(options.uploadsDir) : null;
  }

  /** The connection's job runner; null while none is attached. */
  get runner(): JobRunner | null {
    return this.#runner;
  }

  /** The job as the printer in `state` shows it. */
  status(state: PrinterState): JobStatus {
    const runner = this.#runner;
    if (runner?.active) return runner.status();
    if (runner) {
      const idle = this.#sd?.status() ?? runner.status();
      // A halted printer, or one shaking hands again, prints nothing: its job says so.
      return state === "ERROR" || state === "CONNECTING" ? { ...idle, state } : idle;
    }
    if (this.#cutShort) return { ...this.#cutShort, state };
    const selected = this.#selected;
    return {
      state,
      file: selected === null ? null : { name: selected, size: 0, origin: "local" },
      progress: { ...NO_PROGRESS },
    };
  }

  /**
   * A new connection's job runner (the selected file selected again) and SD card watch; returns
   * their unsubscribe calls, or null when `current()` says the connection was replaced meanwhile.
   */
  async attach(
    driver: PrinterDriver,
    current: () => boolean,
    listener: JobsListener,
  ): Promise<(() => void)[] | null> {
    const { clock, scripts } = this.#options;
    const runner = new JobRunner(driver, { clock, scripts });
    const sd = new SdCardJob(driver, { clock });
    if (this.#selected !== null && this.#uploads) {
      runner.select(await this.#uploads.jobFile(this.#selected).catch(() => null));
    }
    if (!current()) return null;
    this.#runner = runner;
    this.#sd = sd;
    const stops = [
      runner.subscribe((event) => {
        if (!current()) return;
        if (event.type === "progress") return listener.progress(event.job);
        listener.state(event.state, event.error);
      }),
      sd.subscribe(() => {
        if (current()) listener.changed();
      }),
    ];
    sd.start();
    return stops;
  }

  /**
   * The connection ended: the runner and SD watch are dropped. With `lost`, a print under way is
   * kept as cut short (returned), shown until the next connection or selection.
   */
  detach(lost: boolean): JobStatus | null {
    const runner = this.#runner;
    const cut = lost && runner?.active ? runner.status() : null;
    this.#sd?.stop();
    this.#sd = null;
    this.#runner = null;
    if (cut) this.#cutShort = { ...cut, progress: { ...cut.progress, printTimeLeft: null } };
    return cut;
  }

  /** Forgets the print a lost line cut short. */
  forgetCutShort(): void {
    this.#cutShort = null;
  }

  /** Selects `name` from the uploads folder (null: none) for the next print. */
  async select(name: string | null): Promise<void> {
    if (this.#runner?.active) {
      throw new ConflictError("Cannot select a file: a print is under way", {
        code: "invalid_transition",
      });
    }
    const file = name === null ? null : await this.#folder().jobFile(name);
    this.#runner?.select(file);
    this.#selected = file?.name ?? null;
    this.#cutShort = null;
  }

  /** The runner for `action`, or a conflict while the connection has none yet. */
  runnerFor(action: string): JobRunner {
    if (!this.#runner) {
      throw new ConflictError(`Cannot ${action}: the printer is still connecting`, {
        code: "not_connected",
      });
    }
    return this.#runner;
  }

  #folder(): UploadsFolder {
    if (!this.#uploads) throw new ConflictError("Cannot print: this printer has no uploads folder");
    return this.#uploads;
  }
}
