/**
 * The SD card of the Marlin simulator (`marlin_sim.ts`): enough of Marlin 2.1's `M20`–`M27` for a
 * host to list, select, start, pause and watch an SD print. Printing reads the file at a steady
 * `bytesPerSecond` of simulated time (the lines are not run) and ends with `Done printing file`.
 *
 * @module
 */
import type { ParsedCommand } from "./marlin_lines.ts";

/** Files on the card: name (8.3, as Marlin lists it) → content. */
export type SdFiles = Record<string, string>;

/** A card with its selected file and print position. */
export class SdCard {
  #mounted = true;
  #file: { name: string; size: number } | null = null;
  #position = 0;
  #printing = false;
  #reportEvery = 0;
  #sinceReport = 0;

  constructor(readonly files: SdFiles, readonly bytesPerSecond = 100) {}

  /** Whether a print runs (not paused). */
  get printing(): boolean {
    return this.#printing;
  }

  /** Answers an SD command with its lines (before `ok`), or `null` when `code` is not one. */
  handle({ code, params, rest }: ParsedCommand): string[] | null {
    switch (code) {
      case "M20":
        if (!this.#mounted) return ["echo:No media"];
        return [
          "Begin file list",
          ...Object.entries(this.files).map(([name, text]) => `${name} ${size(text)}`),
          "End file list",
        ];
      case "M21":
        this.#mounted = true;
        return ["echo:SD card ok"];
      case "M22":
        this.stop();
        this.#mounted = false;
        return ["echo:SD card released"];
      case "M23":
        return this.#select(rest);
      case "M24":
        if (this.#file) this.#printing = true;
        return [];
      case "M25":
        this.#printing = false;
        return [];
      case "M26":
        if (this.#file) this.#position = Math.min(Number(params.get("S") ?? 0), this.#file.size);
        return [];
      case "M27":
        if (params.has("S")) {
          this.#reportEvery = Number(params.get("S")) || 0;
          return [];
        }
        return [this.status()];
      default:
        return null;
    }
  }

  /** `SD printing byte a/b` while a file prints, else (paused too) `Not SD printing`. */
  status(): string {
    return this.#file && this.#printing
      ? `SD printing byte ${this.#position}/${this.#file.size}`
      : "Not SD printing";
  }

  /** Moves the print on by `seconds`; returns what the firmware prints meanwhile. */
  advance(seconds: number): string[] {
    const out: string[] = [];
    if (this.#printing && this.#file) {
      this.#position = Math.min(this.#file.size, this.#position + this.bytesPerSecond * seconds);
      this.#position = Math.floor(this.#position);
      if (this.#position >= this.#file.size) {
        this.stop();
        out.push("Done printing file");
      }
    }
    if (this.#reportEvery > 0 && (this.#sinceReport += seconds) >= this.#reportEvery) {
      this.#sinceReport = 0;
      out.push(this.status());
    }
    return out;
  }

  /** Ends a print and closes the file (a reset, a halt, `M22`). */
  stop(): void {
    this.#printing = false;
    this.#file = null;
    this.#position = 0;
  }

  /** Forgets auto-reporting too (a reset). */
  reset(): void {
    this.stop();
    this.#reportEvery = 0;
    this.#mounted = true;
  }

  #select(name: string): string[] {
    const found = Object.keys(this.files).find((n) => n.toLowerCase() === name.toLowerCase());
    if (!this.#mounted || found === undefined) return [`echo:open failed, File: ${name}.`];
    this.stop();
    this.#file = { name: found, size: size(this.files[found]!) };
    return [`File opened: ${found} Size: ${this.#file.size}`, "File selected"];
  }
}

function size(text: string): number {
  return new TextEncoder().encode(text).length;
}
