/**
 * The host's own log files in the log folder, in the standard line format: `host.log`, and
 * `errors.log` for the stacks of unexpected errors (file paths, internals), which `host.log`
 * names by reference and only ADMIN may read through the log monitor. Every line is made safe
 * (`sanitizeLogText`: no line breaks or control characters, bounded length) whoever wrote it. A
 * file is opened on its first line, so creating a sink touches nothing.
 *
 * @module
 */
import { dirname, join } from "node:path";
import type { DetailSink, LogSink } from "../log.ts";
import { MAX_LOG_LINE, sanitizeLogText, stderrSink } from "../log.ts";

/** The name of the host's log file inside the log folder. */
export const HOST_LOG_NAME = "host.log";

/** The name of the log of unexpected errors' stacks inside the log folder (ADMIN only). */
export const ERRORS_LOG_NAME = "errors.log";

/** The log files of the folder only ADMIN may read (the log monitor enforces it). */
export const ADMIN_ONLY_LOGS: readonly string[] = [ERRORS_LOG_NAME];

/** A sink appending to a file, and its closer. */
export interface FileSink {
  sink: LogSink;
  close(): void;
}

/** Options of {@linkcode fileSink}. */
export interface FileSinkOptions {
  /** Also write every line to standard error. @default false */
  tee?: boolean;
  /** Mode of the file when it is created. @default 0o644 (less the umask) */
  mode?: number;
}

/** Creates a sink appending lines to `path` (the folder is created when needed). */
export function fileSink(path: string, options: FileSinkOptions = {}): FileSink {
  const encoder = new TextEncoder();
  let file: Deno.FsFile | null = null;
  let closed = false;
  return {
    sink(level, raw) {
      // Whatever the caller: one line per entry, bounded (the header adds < 200 characters).
      const line = sanitizeLogText(raw, MAX_LOG_LINE + 200);
      try {
        if (options.tee) stderrSink(level, line);
      } catch {
        // Standard error is closed (the launcher reading it is gone): the file still gets it.
      }
      if (closed) return;
      if (file === null) {
        Deno.mkdirSync(dirname(path), { recursive: true });
        file = Deno.openSync(path, { append: true, create: true, mode: options.mode });
      }
      file.writeSync(encoder.encode(line + "\n"));
    },
    close() {
      closed = true;
      file?.close();
      file = null;
    },
  };
}

/** A detail sink and its closer. */
export interface DetailFile {
  details: DetailSink;
  close(): void;
}

/**
 * The detail sink of the host's logger: `errors.log` in `logDir` (mode 0600, never on standard
 * error, whose last lines a crash report copies into `host.log`).
 */
export function errorsLog(logDir: string): DetailFile {
  const file = fileSink(join(logDir, ERRORS_LOG_NAME), { mode: 0o600 });
  return {
    details: {
      name: ERRORS_LOG_NAME,
      write(line, details) {
        file.sink("error", line);
        for (const detail of details) file.sink("error", detail);
      },
    },
    close: () => file.close(),
  };
}
