/**
 * The host's own log file in the log folder (`host.log`), in the standard line format. Every
 * line is made safe (`sanitizeLogText`: no line breaks or control characters, bounded length)
 * whoever wrote it. The file is opened on the first line, so creating the sink touches nothing.
 *
 * @module
 */
import { dirname } from "node:path";
import type { LogSink } from "../log.ts";
import { MAX_LOG_LINE, sanitizeLogText, stderrSink } from "../log.ts";

/** The name of the host's log file inside the log folder. */
export const HOST_LOG_NAME = "host.log";

/** A sink appending to a file, and its closer. */
export interface FileSink {
  sink: LogSink;
  close(): void;
}

/** Options of {@linkcode fileSink}. */
export interface FileSinkOptions {
  /** Also write every line to standard error. @default false */
  tee?: boolean;
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
        file = Deno.openSync(path, { append: true, create: true });
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
