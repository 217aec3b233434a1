/**
 * Live streams: one single-file stream and multi-streams (together at most
 * {@linkcode MAX_TAILED} files, across all requests) feed a shared buffer of entries that is
 * pushed as one `log_lines` message {@linkcode BATCH_MS} after new entries arrive. Lines are
 * grouped into entries (a traceback travels with its entry). The entries of an ADMIN-only log
 * (`./access.ts`) go in a message of their own to ADMIN clients only. A message holds the newest
 * entries, at most `max_stream_lines` and about {@linkcode MAX_PUSH_CHARS} characters; `skipped`
 * counts the older entries of a burst left out, so a push socket's queue is measured in messages
 * of bounded size.
 *
 * @module
 */
import { AppError, ConflictError, UsageError } from "../../lib/error.ts";
import type { Clock } from "../../lib/clock.ts";
import type { Logger } from "../../lib/log.ts";
import type { PushOptions } from "../../lib/host/mod.ts";
import { isAdminOnlyLog } from "./access.ts";
import { EntryStream, groupLines, type StreamEntry } from "./entries.ts";
import { assertSearchable, openLogFile, type ResolvedFile } from "./files.ts";
import { maskLine } from "./mask.ts";
import { lastLines, Tailer } from "./tail.ts";
import type { ChangeFeed } from "./watch.ts";

/** Most files per multi-stream request. */
export const MAX_MULTI_FILES = 20;
/** Most files tailed for live streams at once, over all requests (single and multi). */
export const MAX_TAILED = 20;
/** Lines read for `stream/start` (grouped into entries). */
export const INITIAL_LINES = 100;
/** Delay between new entries and their push (batches bursts). */
export const BATCH_MS = 50;
/** Most characters of entry text (message and raw) in one `log_lines` message. */
export const MAX_PUSH_CHARS = 1024 * 1024;

/** What the stream manager needs from its plugin. */
export interface StreamDeps {
  logDir: string;
  clock: Clock;
  logger: Logger;
  /** Current poll interval in ms (tailers and flush). */
  pollMs(): number;
  /** Current `max_stream_lines`. */
  maxLines(): number;
  /** Current `mask_log_content`. */
  mask(): boolean;
  push(data: Record<string, unknown>, options?: PushOptions): void;
  /** File-change notifications (null: poll). */
  feed: ChangeFeed | null;
}

interface Stream {
  tailer: Tailer;
  entries: EntryStream;
}

/** Throws when the requester may not read a resolved file (e.g. an ADMIN-only log). */
export type ReadCheck = (file: ResolvedFile) => void;

/** Single and multi streams. */
export class StreamManager {
  #deps: StreamDeps;
  #single: Stream | null = null;
  #multi = new Map<string, Stream>();
  #buffer: StreamEntry[] = [];
  /** Entries of ADMIN-only logs: pushed to ADMIN clients only. */
  #adminBuffer: StreamEntry[] = [];
  #singleName: string | null = null;
  /** Entries dropped from each buffer since its last push. */
  #dropped = { all: 0, admin: 0 };
  #cancelFlush: (() => void) | null = null;

  constructor(deps: StreamDeps) {
    this.#deps = deps;
  }

  /**
   * Starts (or switches) the single stream; returns its initial entries. `check` refuses a
   * file the requester may not read.
   *
   * @throws {ConflictError} when {@linkcode MAX_TAILED} files are already tailed.
   */
  async startSingle(name: unknown, check?: ReadCheck): Promise<Record<string, unknown>> {
    if (!this.#single && this.#multi.size >= MAX_TAILED) {
      throw new ConflictError(`Too many files tailed (at most ${MAX_TAILED} at once)`, {
        code: "too_many_tails",
      });
    }
    const opened = await this.#open(name, "Log file is too large to stream", check);
    await this.#stopStream(this.#single);
    this.#single = null;
    this.#buffer = [];
    this.#adminBuffer = [];
    let initial: StreamEntry[];
    try {
      initial = groupLines(await lastLines(opened.file, INITIAL_LINES)).map((e) =>
        this.#prepare(e)
      );
    } catch (err) {
      opened.file.close();
      throw err;
    }
    this.#single = await this.#stream(opened.name, opened, undefined);
    this.#singleName = opened.name;
    return { status: "started", file: opened.name, initial_lines: initial };
  }

  /** Stops the single stream. */
  async stopSingle(): Promise<Record<string, unknown>> {
    if (!this.#single) return { status: "not_running" };
    await this.#stopStream(this.#single);
    this.#single = null;
    this.#singleName = null;
    this.#drainIfIdle();
    return { status: "stopped" };
  }

  /** Starts multi-streams; per-file failures (also the global cap) are reported, not thrown. */
  async startMulti(files: unknown, check?: ReadCheck): Promise<Record<string, unknown>> {
    if (!Array.isArray(files) || files.length === 0) throw new UsageError("No files specified");
    if (files.length > MAX_MULTI_FILES) {
      throw new UsageError(`Too many files specified (max ${MAX_MULTI_FILES})`);
    }
    const started: string[] = [];
    const failed: { file: unknown; error: string }[] = [];
    for (const name of files) {
      try {
        const replacing = typeof name === "string" && this.#multi.has(name);
        if (!replacing && this.#multi.size + (this.#single ? 1 : 0) >= MAX_TAILED) {
          throw new ConflictError(`Too many files tailed (at most ${MAX_TAILED} at once)`);
        }
        const opened = await this.#open(name, "File is too large to stream", check);
        await this.#stopStream(this.#multi.get(opened.name) ?? null);
        this.#multi.set(opened.name, await this.#stream(opened.name, opened, opened.name));
        started.push(opened.name);
      } catch (err) {
        if (!(err instanceof AppError)) {
          this.#deps.logger.error(`Multi-stream start failed: ${err}`);
        }
        failed.push({
          file: name,
          error: err instanceof AppError ? err.message : "Failed to start",
        });
      }
    }
    return { status: "multi_started", started, failed, total_active: this.#multi.size };
  }

  /** Stops listed multi-streams or all of them. */
  async stopMulti(files: unknown, stopAll: boolean): Promise<Record<string, unknown>> {
    if (stopAll) {
      const total = this.#multi.size;
      for (const t of this.#multi.values()) await this.#stopStream(t);
      this.#multi.clear();
      this.#drainIfIdle();
      return { status: "all_stopped", total_stopped: total };
    }
    if (!Array.isArray(files)) throw new UsageError("files must be a list");
    const stopped: string[] = [];
    for (const name of files) {
      const t = typeof name === "string" ? this.#multi.get(name) : undefined;
      if (!t) continue;
      await this.#stopStream(t);
      this.#multi.delete(name as string);
      stopped.push(name as string);
    }
    this.#drainIfIdle();
    return { status: "multi_stopped", stopped, total_remaining: this.#multi.size };
  }

  /** The active multi-stream files. */
  /** The file of the single stream, or null. */
  activeSingle(): string | null {
    return this.#single ? this.#singleName : null;
  }

  activeMulti(): string[] {
    return [...this.#multi.keys()].sort();
  }

  /** Number of files tailed for streams. */
  get tailed(): number {
    return this.#multi.size + (this.#single ? 1 : 0);
  }

  /** Sends buffered entries now (the batch timer calls this). */
  flush(): void {
    this.#cancelFlush?.();
    this.#cancelFlush = null;
    if (this.#buffer.length > 0) this.#deps.push(this.#message(this.#buffer, this.#dropped.all));
    if (this.#adminBuffer.length > 0) {
      this.#deps.push(this.#message(this.#adminBuffer, this.#dropped.admin), {
        permission: "ADMIN",
      });
    }
    this.#buffer = [];
    this.#adminBuffer = [];
    this.#dropped = { all: 0, admin: 0 };
  }

  /** The newest entries of `buffer` within the message limits, and how many were left out. */
  #message(buffer: StreamEntry[], dropped: number): Record<string, unknown> {
    let first = Math.max(0, buffer.length - this.#deps.maxLines());
    let chars = 0;
    for (let i = buffer.length - 1; i >= first; i--) {
      const e = buffer[i]!;
      chars += e.message.length + e.raw.length + 100;
      if (chars > MAX_PUSH_CHARS && i < buffer.length - 1) {
        first = i + 1;
        break;
      }
    }
    const skipped = dropped + first;
    const data = buffer.slice(first);
    return skipped > 0 ? { type: "log_lines", data, skipped } : { type: "log_lines", data };
  }

  /** Stops every stream. */
  async stopAll(): Promise<void> {
    await this.stopSingle();
    await this.stopMulti([], true);
    this.#cancelFlush?.();
    this.#cancelFlush = null;
  }

  async #open(name: unknown, tooLarge: string, check?: ReadCheck) {
    const opened = await openLogFile(this.#deps.logDir, name, { logger: this.#deps.logger });
    try {
      check?.(opened);
      assertSearchable(opened, tooLarge);
    } catch (err) {
      opened.file.close();
      throw err;
    }
    return opened;
  }

  #prepare(entry: StreamEntry, source?: string): StreamEntry {
    const out = this.#deps.mask() ? maskLine(entry) : entry;
    return source === undefined ? out : { ...out, _source_file: source };
  }

  async #stream(
    name: string,
    opened: { file: Deno.FsFile; name: string; path: string },
    source: string | undefined,
  ): Promise<Stream> {
    const admin = isAdminOnlyLog(opened);
    const entries = new EntryStream(this.#deps.clock, (list) => {
      const buffer = admin ? this.#adminBuffer : this.#buffer;
      for (const e of list) buffer.push(this.#prepare(e, source));
      const cap = this.#deps.maxLines() * 4;
      if (buffer.length > cap) {
        this.#dropped[admin ? "admin" : "all"] += buffer.length - cap;
        buffer.splice(0, buffer.length - cap);
      }
      this.#cancelFlush ??= this.#deps.clock.setTimeout(() => this.flush(), BATCH_MS);
    });
    const tailer = new Tailer({
      initial: opened,
      open: () => this.#open(name, "Log file is too large to stream"),
      clock: this.#deps.clock,
      pollMs: this.#deps.pollMs(),
      feed: this.#deps.feed,
      onLines: (lines, sizes) => entries.push(lines, sizes),
      onError: (err) => this.#deps.logger.debug(`Tail of ${name} failed: ${err}`),
    });
    try {
      await tailer.start();
    } catch (err) {
      opened.file.close();
      throw err;
    }
    return { tailer, entries };
  }

  async #stopStream(stream: Stream | null): Promise<void> {
    if (!stream) return;
    await stream.tailer.stop();
    stream.entries.close();
  }

  #drainIfIdle(): void {
    if (this.#single || this.#multi.size > 0) return;
    this.flush();
  }
}
