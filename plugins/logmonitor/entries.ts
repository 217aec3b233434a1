/**
 * Log entries that span lines. A line that begins with a timestamp (`YYYY-MM-DD HH:MM:SS`)
 * starts an entry; any other line (a traceback, indented text) belongs to the entry of the
 * closest timestamped line above it when that line starts less than
 * {@linkcode MAX_ENTRY_BYTES} before it. Otherwise (no timestamped line yet, or too far) the
 * line stands alone as an `UNKNOWN` entry. Search, filters, export, live tail and alerts all
 * use this one rule.
 *
 * @module
 */
import type { Clock } from "../../lib/clock.ts";
import { type Level, LEVELS, type ParsedLine, parseLine } from "./parse.ts";

/** How far (in bytes, from the start of its first line) an entry may reach. */
export const MAX_ENTRY_BYTES = 128 * 1024;
/** Most characters of an entry returned by search or streamed (the rest is cut). */
export const MAX_ENTRY_CHARS = 16 * 1024;
/** Appended to an entry that was cut. */
export const CUT_MARK = " …[cut]";

const TS_LINE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/;

/** Whether a line starts a new entry (begins with a timestamp). */
export function startsEntry(line: string): boolean {
  return TS_LINE.test(line);
}

const D = 1; // digit
const PATTERN = [D, D, D, D, 45, D, D, 45, D, D, 32, D, D, 58, D, D, 58, D, D];

/** Whether the bytes at `at` begin with a timestamp (the byte form of {@linkcode startsEntry}). */
export function startsEntryAt(bytes: Uint8Array, at: number): boolean {
  for (let i = 0; i < PATTERN.length; i++) {
    const b = bytes[at + i];
    if (b === undefined) return false;
    const want = PATTERN[i]!;
    if (want === D ? b < 48 || b > 57 : b !== want) return false;
  }
  return true;
}

/** Cuts a text to {@linkcode MAX_ENTRY_CHARS}. */
export function capText(text: string): string {
  return text.length > MAX_ENTRY_CHARS ? text.slice(0, MAX_ENTRY_CHARS) + CUT_MARK : text;
}

/**
 * Builds an entry from its lines: the first line's fields, with the continuation lines
 * appended to `message` and `raw` (joined with `\n`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { entryFromLines } from "./entries.ts";
 * const e = entryFromLines(["2024-01-01 12:00:00,000 - app - ERROR - boom", "Traceback:"]);
 * assert.ok(e.level === "ERROR" && e.message === "boom\nTraceback:");
 * ```
 */
export function entryFromLines(lines: string[]): ParsedLine {
  const first = parseLine(capText(lines[0] ?? ""));
  if (lines.length < 2) return first;
  const rest = capText(lines.slice(1).join("\n"));
  return { ...first, message: `${first.message}\n${rest}`, raw: `${first.raw}\n${rest}` };
}

/** A streamed line that continues an entry already sent; it carries the entry's fields. */
export type StreamEntry = ParsedLine & { continuation?: true };

/**
 * Groups streamed lines into entries. The entry being written is held until a new entry
 * starts or {@linkcode EntryGrouper.close} is called (the caller does that after a quiet
 * moment); a continuation line that arrives after its entry was closed is sent on its own
 * with the entry's timestamp, logger and level and `continuation: true`.
 */
export class EntryGrouper {
  #open: { lines: string[]; bytes: number } | null = null;
  #last: { entry: ParsedLine; bytes: number } | null = null;

  /** Adds one line (`bytes` is its length in the file, newline included); returns finished entries. */
  push(line: string, bytes: number): StreamEntry[] {
    if (startsEntry(line)) {
      const done = this.close();
      this.#open = { lines: [line], bytes };
      return done;
    }
    if (this.#open && this.#open.bytes < MAX_ENTRY_BYTES) {
      this.#open.lines.push(line);
      this.#open.bytes += bytes;
      return [];
    }
    const out = this.close();
    if (this.#last && this.#last.bytes < MAX_ENTRY_BYTES) {
      this.#last.bytes += bytes;
      const { timestamp, logger, level } = this.#last.entry;
      const text = capText(line);
      out.push({ timestamp, logger, level, message: text, raw: text, continuation: true });
      return out;
    }
    this.#last = null;
    out.push(parseLine(capText(line)));
    return out;
  }

  /** Finishes the entry being written (if any). */
  close(): StreamEntry[] {
    if (!this.#open) return [];
    const entry = entryFromLines(this.#open.lines);
    this.#last = { entry, bytes: this.#open.bytes };
    this.#open = null;
    return [entry];
  }

  /** Whether an entry is being held. */
  get holding(): boolean {
    return this.#open !== null;
  }
}

/** How long a streamed entry is held for more of its lines after the last one arrived. */
export const HOLD_MS = 150;

/**
 * Groups streamed lines into entries and sends them: an entry is sent when the next one starts
 * or {@linkcode HOLD_MS} after its last line arrived.
 */
export class EntryStream {
  #grouper = new EntryGrouper();
  #clock: Clock;
  #emit: (entries: StreamEntry[]) => void;
  #cancelHold: (() => void) | null = null;

  constructor(clock: Clock, emit: (entries: StreamEntry[]) => void) {
    this.#clock = clock;
    this.#emit = emit;
  }

  /** Adds lines (with their sizes in bytes, as a tailer delivers them). */
  push(lines: string[], sizes: number[]): void {
    const out: StreamEntry[] = [];
    for (let i = 0; i < lines.length; i++) out.push(...this.#grouper.push(lines[i]!, sizes[i]!));
    if (out.length > 0) this.#emit(out);
    this.#cancelHold?.();
    this.#cancelHold = this.#grouper.holding
      ? this.#clock.setTimeout(() => this.close(), HOLD_MS)
      : null;
  }

  /** Sends the entry being held now. */
  close(): void {
    this.#cancelHold?.();
    this.#cancelHold = null;
    const out = this.#grouper.close();
    if (out.length > 0) this.#emit(out);
  }
}

/** Groups a block of lines (e.g. the last lines of a file) into entries. */
export function groupLines(lines: string[]): StreamEntry[] {
  const g = new EntryGrouper();
  const out = lines.flatMap((l) => g.push(l, l.length + 1));
  return [...out, ...g.close()];
}

const LEVEL_WORDS = LEVELS.map((l) => [l, new TextEncoder().encode(l)] as const);

/**
 * The level of a standard line (`<ts>[,mmm] - logger - LEVEL - message`) read from its bytes
 * `[start, end)`, or null when the line is not plainly in that form (the caller then parses it).
 * Only answers when `parseLine` would give the same level.
 */
export function quickLevel(bytes: Uint8Array, start: number, end: number): Level | null {
  if (!startsEntryAt(bytes, start)) return null;
  let p = start + 19;
  if (bytes[p] === 44 && isDigits(bytes, p + 1, 3)) p += 4;
  if (bytes[p] !== 32 || bytes[p + 1] !== 45 || bytes[p + 2] !== 32) return null;
  const logger = p + 3;
  let k = logger;
  while (k < end && bytes[k] !== 45) k++;
  if (k >= end || k < logger + 2 || bytes[k - 1] !== 32 || bytes[k + 1] !== 32) return null;
  if (bytes[logger] === 32) return null;
  const at = k + 2;
  for (const [level, word] of LEVEL_WORDS) {
    let i = 0;
    while (i < word.length && bytes[at + i] === word[i]) i++;
    if (i < word.length) continue;
    const m = at + word.length;
    if (bytes[m] !== 32 || bytes[m + 1] !== 45 || bytes[m + 2] !== 32 || m + 3 >= end) return null;
    for (let j = m + 3; j < end; j++) {
      const b = bytes[j]!;
      if (b === 13 || b === 0xe2 || b === 10) return null; // CR, U+2028/2029 end `.`
    }
    return level;
  }
  return null;
}

function isDigits(bytes: Uint8Array, at: number, n: number): boolean {
  for (let i = 0; i < n; i++) {
    const b = bytes[at + i];
    if (b === undefined || b < 48 || b > 57) return false;
  }
  return true;
}
