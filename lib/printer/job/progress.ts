/**
 * How far a print is: bytes of the file and lines sent, the time spent printing (pauses
 * excluded) and the time left, estimated from the rate so far.
 *
 * @module
 */
import type { Clock } from "../../clock.ts";
import type { JobStatus } from "../printer.ts";

/** The progress of one print, on an injected clock. */
export class JobProgress {
  readonly #clock: Clock;
  #size = 0;
  #filepos = 0;
  #lines = 0;
  #startedAt: number | null = null;
  #endedAt: number | null = null;
  #pausedMs = 0;
  #pausedSince: number | null = null;
  #reported: { percent: number; at: number } | null = null;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** Starts counting a print of a file of `size` bytes from its beginning. */
  start(size: number): void {
    this.#size = size;
    this.#filepos = 0;
    this.#lines = 0;
    this.#startedAt = this.#clock.now();
    this.#endedAt = null;
    this.#pausedMs = 0;
    this.#pausedSince = null;
    this.#reported = null;
  }

  /** Forgets the print (a file was selected, none printed yet): all null again. */
  clear(): void {
    this.#startedAt = null;
  }

  /** One more line sent; `filepos`: bytes of the file done. */
  advance(filepos: number): void {
    this.#filepos = filepos;
    this.#lines++;
  }

  /** The whole file is done. */
  complete(): void {
    this.#filepos = this.#size;
  }

  /** The print stops counting time (paused). */
  pause(): void {
    this.#pausedSince ??= this.#clock.now();
  }

  /** The print counts time again. */
  resume(): void {
    if (this.#pausedSince === null) return;
    this.#pausedMs += this.#clock.now() - this.#pausedSince;
    this.#pausedSince = null;
  }

  /** The print ended (finished, cancelled or failed): the time stops. */
  end(): void {
    this.#endedAt ??= this.#clock.now();
  }

  /** Whether a progress report is due: a new whole percent, or `intervalMs` since the last. */
  due(intervalMs: number): boolean {
    const percent = Math.floor(this.#completion() ?? 0);
    const now = this.#clock.now();
    const last = this.#reported;
    if (last && percent === last.percent && now - last.at < intervalMs) return false;
    this.#reported = { percent, at: now };
    return true;
  }

  /** The progress as `JobStatus` shows it (all null before the first print). */
  status(): JobStatus["progress"] {
    if (this.#startedAt === null) {
      return { completion: null, filepos: null, lines: null, printTime: null, printTimeLeft: null };
    }
    const seconds = this.#printSeconds();
    const left = this.#filepos >= this.#size
      ? 0
      : this.#filepos > 0 && seconds > 0
      ? Math.round(seconds * (this.#size - this.#filepos) / this.#filepos)
      : null;
    return {
      completion: this.#completion(),
      filepos: this.#filepos,
      lines: this.#lines,
      printTime: Math.round(seconds),
      printTimeLeft: this.#endedAt !== null && left !== 0 ? null : left,
    };
  }

  #completion(): number | null {
    if (this.#startedAt === null) return null;
    return this.#size === 0 ? 100 : Math.min(100, this.#filepos * 100 / this.#size);
  }

  #printSeconds(): number {
    const now = this.#endedAt ?? this.#clock.now();
    const paused = this.#pausedSince === null ? 0 : now - this.#pausedSince;
    return Math.max(0, now - this.#startedAt! - this.#pausedMs - paused) / 1000;
  }
}
