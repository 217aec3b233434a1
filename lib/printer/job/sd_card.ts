/**
 * A print from the printer's own SD card, as a job of origin `sdcard`: started from the terminal
 * (`M23 <file>`, `M24`) or found running (`M27` at the handshake). While it runs, the status is
 * polled with `M27` (or auto-reported with `M27 S<n>` where the firmware can:
 * `Cap:AUTOREPORT_SD_STATUS:1`); only on firmware that reports `Cap:SDCARD:1`.
 *
 * @module
 */
import { type Clock, systemClock } from "../../clock.ts";
import type { DriverEvent, PrinterDriver } from "../driver.ts";
import type { JobStatus } from "../printer.ts";
import { JobProgress } from "./progress.ts";

/** Options of {@linkcode SdCardJob}. */
export interface SdCardJobOptions {
  /** Timers and time stamps. @default systemClock */
  clock?: Clock;
  /** Seconds between two status reports while an SD print runs. @default 5 */
  intervalSeconds?: number;
}

/** The command of a line the host sent, without its number and checksum. */
function commandOf(sent: string): string {
  return sent.replace(/^N\d+\s+/, "").replace(/\*\d+$/, "").trim();
}

/** Watches one driver for a print from the SD card. */
export class SdCardJob {
  readonly #driver: PrinterDriver;
  readonly #clock: Clock;
  readonly #seconds: number;
  readonly #progress: JobProgress;
  #listeners = new Set<(job: JobStatus | null) => void>();
  #unsubscribe: (() => void) | null = null;
  #stopPolls: (() => void) | null = null;
  #card = false;
  #autoreport = false;
  #file: string | null = null;
  #total: number | null = null;
  #printing = false;
  #paused = false;

  constructor(driver: PrinterDriver, options: SdCardJobOptions = {}) {
    this.#driver = driver;
    this.#clock = options.clock ?? systemClock;
    this.#seconds = options.intervalSeconds ?? 5;
    this.#progress = new JobProgress(this.#clock);
  }

  /** Starts watching the driver's events. */
  start(): void {
    this.#unsubscribe ??= this.#driver.subscribe((event) => this.#on(event));
    if (this.#driver.firmware) this.#firmware(this.#driver.firmware.capabilities);
  }

  /** Stops watching and polling. */
  stop(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    this.#poll(false);
  }

  /** Subscribes to changes of {@linkcode status}; returns the unsubscribe function. */
  subscribe(listener: (job: JobStatus | null) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The SD print as a job (PRINTING or PAUSED); null when none runs. */
  status(): JobStatus | null {
    if (!this.#printing) return null;
    const progress = this.#progress.status();
    return {
      state: this.#paused ? "PAUSED" : "PRINTING",
      file: { name: this.#file ?? "", size: this.#total ?? 0, origin: "sdcard" },
      progress: { ...progress, lines: null },
    };
  }

  #on(event: DriverEvent): void {
    switch (event.type) {
      case "firmware":
        return this.#firmware(event.firmware.capabilities);
      case "sd":
        return event.printing ? this.#report(event.byte ?? 0, event.total) : this.#notPrinting();
      case "line":
        return event.direction === "sent"
          ? this.#sent(commandOf(event.text))
          : this.#heard(event.text);
      case "state":
        if (event.state !== "operational" && event.state !== "error") this.#end(); // board reset
    }
  }

  #firmware(capabilities: Record<string, boolean>): void {
    this.#card = capabilities.SDCARD === true;
    this.#autoreport = capabilities.AUTOREPORT_SD_STATUS === true;
    if (this.#card) this.#send("M27"); // a print already running shows up
  }

  /** What the host (the terminal) told the card to do. */
  #sent(command: string): void {
    const [word, ...rest] = command.split(/\s+/);
    switch (word?.toUpperCase()) {
      case "M23":
        this.#file = rest.join(" ") || null;
        this.#total = null;
        break;
      case "M24": // starts or resumes: the next report tells which
        if (this.#printing) this.#resume();
        else this.#send("M27");
        break;
      case "M25":
        if (this.#printing && !this.#paused) {
          this.#paused = true;
          this.#progress.pause();
          this.#emit();
        }
        break;
      case "M524":
        this.#end();
    }
  }

  /** What the card said without being asked (`M23`'s answer, the end of the print). */
  #heard(text: string): void {
    const opened = text.match(/^File opened:\s*(.+?)\s+Size:\s*(\d+)/);
    if (opened) {
      this.#file = opened[1]!;
      this.#total = Number(opened[2]);
    } else if (text.startsWith("Done printing file")) this.#end();
  }

  #report(byte: number, total: number | null): void {
    if (!this.#printing) {
      this.#printing = true;
      this.#paused = false;
      this.#total = total;
      this.#progress.start(total ?? 0);
      this.#poll(true);
    }
    this.#total = total ?? this.#total;
    if (this.#paused) this.#resume();
    this.#progress.advance(byte);
    this.#emit();
  }

  /** `Not SD printing`: paused (after `M25`), else over. */
  #notPrinting(): void {
    if (!this.#paused) this.#end();
  }

  #resume(): void {
    this.#paused = false;
    this.#progress.resume();
    this.#emit();
  }

  #end(): void {
    if (!this.#printing) return;
    this.#printing = false;
    this.#paused = false;
    this.#poll(false);
    this.#emit();
  }

  /** Starts or stops the status reports of a running print. */
  #poll(on: boolean): void {
    if (!this.#card) return;
    if (this.#autoreport) {
      if (on !== (this.#stopPolls !== null)) this.#send(on ? `M27 S${this.#seconds}` : "M27 S0");
      this.#stopPolls = on ? () => {} : null;
      return;
    }
    this.#stopPolls?.();
    this.#stopPolls = on
      ? this.#clock.setInterval(() => this.#send("M27"), this.#seconds * 1000)
      : null;
  }

  #send(command: string): void {
    if (this.#driver.state !== "operational") return;
    this.#driver.send(command).catch(() => {}); // a failed poll: the driver's state tells
  }

  #emit(): void {
    const job = this.status();
    for (const listener of this.#listeners) {
      try {
        listener(job);
      } catch {
        // One failing listener never stops the others.
      }
    }
  }
}
