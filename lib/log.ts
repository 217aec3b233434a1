/**
 * A small levelled logger (the lint rule `no-console` keeps output in one place) and the
 * functions the command lines use to print results.
 *
 * @module
 */

/** Log levels, lowest first. */
export type LogLevel = "debug" | "info" | "warn" | "error";

const ORDER: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/** Where log lines go. */
export interface LogSink {
  (level: LogLevel, line: string): void;
}

/** A logger with a name and a minimum level. */
export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  /**
   * Logs an unexpected error (a bug) at ERROR. With a {@linkcode DetailSink} the line names the
   * error's class and a reference (`GET /x: TypeError (details: errors.log ref 3f9a2c1b)`) and
   * its message and stack go to the detail sink under that reference; without one, the stack
   * follows on the same line.
   */
  failure(message: string, err: unknown): void;
  /** A logger writing to the same sink under another name. */
  child(name: string): Logger;
}

const encoder = new TextEncoder();

/** Writes every line to standard error. */
export const stderrSink: LogSink = (_level, line) => {
  Deno.stderr.writeSync(encoder.encode(line + "\n"));
};

/**
 * Where a logger writes the details of an unexpected error (its stack, which names files) apart
 * from its log, for fewer readers: one entry per error, under the reference its log line names.
 */
export interface DetailSink {
  /** The name the log line gives for the details (e.g. `errors.log`). */
  name: string;
  /** Writes one entry: its first line (standard format), then its detail lines (indented). */
  write(line: string, details: string[]): void;
}

/** Most detail lines of one {@linkcode Logger.failure}. */
export const MAX_DETAIL_LINES = 200;

/** A new reference of a failure's details: 8 hex digits. */
export function newReference(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(4));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The detail lines of an error: its stack (or name and message), then its causes, each line
 * made safe and indented so that no line can read as an entry of its own.
 */
function detailLines(err: Error): string[] {
  const out: string[] = [];
  let e: unknown = err;
  for (let depth = 0; e !== undefined && depth < 5; depth++) {
    const text = e instanceof Error ? e.stack ?? `${e.name}: ${e.message}` : String(e);
    if (depth > 0) out.push("Caused by:");
    out.push(...text.split(/\r?\n/));
    e = e instanceof Error ? e.cause : undefined;
  }
  return out.slice(0, MAX_DETAIL_LINES).map((l) => `    ${sanitizeLogText(l)}`);
}

/**
 * Whether a line of a process's error output is part of a stack: a frame (`    at f (file.ts:1:2)`)
 * or the caret under a quoted source line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isStackLine } from "./log.ts";
 * assert.ok(isStackLine("    at main (file:///srv/host.ts:3:9)"));
 * assert.ok(!isStackLine("Error: Address already in use"));
 * ```
 */
export function isStackLine(line: string): boolean {
  return /^\s*at\s+\S/.test(line) || /^\s*\^+\s*$/.test(line);
}

/** Options of {@linkcode createLogger}. */
export interface LoggerOptions {
  /** Lowest level written. @default "info" */
  level?: LogLevel;
  /** Destination. @default stderrSink */
  sink?: LogSink;
  /** Clock for the time stamp. @default () => new Date() */
  now?: () => Date;
  /** Where {@linkcode Logger.failure} writes stacks. @default none: on the log line */
  details?: DetailSink;
}

/** The longest log line written; longer lines are cut with a note of how much was cut. */
export const MAX_LOG_LINE = 4000;

/**
 * Makes text safe for a one-line log entry: line breaks and other control characters (CR, LF,
 * NEL, U+2028/2029, escape sequences) become visible escapes (`\n`, `\u001b`), so a client's text
 * cannot start a new entry or drive a terminal, and the result is cut to `max` characters.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sanitizeLogText } from "./log.ts";
 * assert.equal(sanitizeLogText("a\nb - ERROR - x"), "a\\nb - ERROR - x");
 * assert.equal(sanitizeLogText("x".repeat(50), 10), "xxxxxxxxxx… [40 more characters]");
 * ```
 */
export function sanitizeLogText(text: string, max = MAX_LOG_LINE): string {
  let out = "";
  let i = 0;
  for (; i < text.length && out.length < max; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x0a) out += "\\n";
    else if (code === 0x0d) out += "\\r";
    else if (
      (code < 0x20 && code !== 0x09) || (code >= 0x7f && code <= 0x9f) || code === 0x2028 ||
      code === 0x2029
    ) {
      out += `\\u${code.toString(16).padStart(4, "0")}`;
    } else out += text[i];
  }
  if (i >= text.length && out.length <= max) return out;
  return `${out.slice(0, max)}… [${text.length - i} more characters]`;
}

/** Formats a date as `YYYY-MM-DD HH:MM:SS,mmm` in local time (the print-host log format). */
export function formatLogTime(d: Date): string {
  const p = (n: number, w = 2) => String(n).padStart(w, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ` +
    `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())},${p(d.getMilliseconds(), 3)}`;
}

/**
 * Creates a logger whose lines read `YYYY-MM-DD HH:MM:SS,mmm - name - LEVEL - message`; the
 * message goes through {@linkcode sanitizeLogText} (one line, at most {@linkcode MAX_LOG_LINE}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createLogger } from "./log.ts";
 * const lines: string[] = [];
 * const log = createLogger("bench", { sink: (_l, s) => lines.push(s) });
 * log.info("hello");
 * assert.ok(lines[0]!.endsWith(" - bench - INFO - hello"));
 * ```
 */
export function createLogger(name: string, options: LoggerOptions = {}): Logger {
  const min = ORDER[options.level ?? "info"];
  const sink = options.sink ?? stderrSink;
  const now = options.now ?? (() => new Date());
  const line = (label: string, message: string) =>
    `${formatLogTime(now())} - ${name} - ${label} - ${sanitizeLogText(message)}`;
  const write = (level: LogLevel, message: string) => {
    if (ORDER[level] < min) return;
    sink(level, line(level === "warn" ? "WARNING" : level.toUpperCase(), message));
  };
  return {
    debug: (m) => write("debug", m),
    info: (m) => write("info", m),
    warn: (m) => write("warn", m),
    error: (m) => write("error", m),
    failure(message, err) {
      const e = err instanceof Error ? err : new Error(String(err));
      const details = options.details;
      if (!details) return write("error", `${message}: ${e.stack ?? e.message}`);
      const ref = newReference();
      write("error", `${message}: ${e.name} (details: ${details.name} ref ${ref})`);
      if (ORDER.error < min) return;
      try {
        details.write(line("ERROR", `ref ${ref}: ${message}`), detailLines(e));
      } catch (writeErr) {
        sink("error", line("ERROR", `Cannot write the details of ref ${ref}: ${writeErr}`));
      }
    },
    child: (child) => createLogger(`${name}.${child}`, options),
  };
}

/** Where a command writes: standard output and standard error, injected for tests. */
export interface Output {
  out(text: string): void;
  err(text: string): void;
}

/** Writes text to standard output as it is (for command output, not logs). */
export function print(text: string): void {
  Deno.stdout.writeSync(encoder.encode(text.endsWith("\n") ? text : text + "\n"));
}

/** Writes text to standard error as it is (for command-line error messages). */
export function printError(text: string): void {
  Deno.stderr.writeSync(encoder.encode(text.endsWith("\n") ? text : text + "\n"));
}
