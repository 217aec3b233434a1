/**
 * Live streams: one single-file stream and any number of multi-streams feed a shared buffer
 * that is flushed as one `log_lines` push per poll interval while any stream runs.
 *
 * @module
 */
import { AppError } from "../../lib/error.ts";
import type { Clock } from "../../lib/clock.ts";
import type { Logger } from "../../lib/log.ts";
import { assertSearchable, resolveLogFile } from "./files.ts";
import { maskLine } from "./mask.ts";
import { type ParsedLine, parseLine } from "./parse.ts";
import { lastLines, Tailer } from "./tail.ts";

/** Most files per multi-stream request. */
export const MAX_MULTI_FILES = 20;
/** Lines returned by `stream/start`. */
export const INITIAL_LINES = 100;

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
  push(data: Record<string, unknown>): void;
}

/** Single and multi streams. */
export class StreamManager {
  #deps: StreamDeps;
  #single: Tailer | null = null;
  #multi = new Map<string, Tailer>();
  #buffer: ParsedLine[] = [];
  #cancelFlush: (() => void) | null = null;

  constructor(deps: StreamDeps) {
    this.#deps = deps;
  }

  /** Starts (or switches) the single stream; returns its initial lines. */
  async startSingle(name: unknown): Promise<Record<string, unknown>> {
    const file = await resolveLogFile(this.#deps.logDir, name, { logger: this.#deps.logger });
    assertSearchable(file, "Log file is too large to stream");
    await this.#single?.stop();
    this.#single = null;
    this.#buffer = [];
    const initial = (await lastLines(file.path, INITIAL_LINES)).map((l) => this.#prepare(l));
    this.#single = this.#tailer(file.path, undefined);
    await this.#single.start();
    this.#armFlush();
    return { status: "started", file: file.name, initial_lines: initial };
  }

  /** Stops the single stream. */
  async stopSingle(): Promise<Record<string, unknown>> {
    if (!this.#single) return { status: "not_running" };
    await this.#single.stop();
    this.#single = null;
    this.#disarmIfIdle();
    return { status: "stopped" };
  }

  /** Starts multi-streams; per-file failures are reported, not thrown. */
  async startMulti(files: unknown): Promise<Record<string, unknown>> {
    if (!Array.isArray(files) || files.length === 0) throw new AppError(400, "No files specified");
    if (files.length > MAX_MULTI_FILES) {
      throw new AppError(400, `Too many files specified (max ${MAX_MULTI_FILES})`);
    }
    const started: string[] = [];
    const failed: { file: unknown; error: string }[] = [];
    for (const name of files) {
      try {
        const file = await resolveLogFile(this.#deps.logDir, name, { logger: this.#deps.logger });
        assertSearchable(file, "File is too large to stream");
        await this.#multi.get(file.name)?.stop();
        const tailer = this.#tailer(file.path, file.name);
        await tailer.start();
        this.#multi.set(file.name, tailer);
        started.push(file.name);
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
    this.#armFlush();
    return { status: "multi_started", started, failed, total_active: this.#multi.size };
  }

  /** Stops listed multi-streams or all of them. */
  async stopMulti(files: unknown, stopAll: boolean): Promise<Record<string, unknown>> {
    if (stopAll) {
      const total = this.#multi.size;
      for (const t of this.#multi.values()) await t.stop();
      this.#multi.clear();
      this.#disarmIfIdle();
      return { status: "all_stopped", total_stopped: total };
    }
    if (!Array.isArray(files)) throw new AppError(400, "files must be a list");
    const stopped: string[] = [];
    for (const name of files) {
      const t = typeof name === "string" ? this.#multi.get(name) : undefined;
      if (!t) continue;
      await t.stop();
      this.#multi.delete(name as string);
      stopped.push(name as string);
    }
    this.#disarmIfIdle();
    return { status: "multi_stopped", stopped, total_remaining: this.#multi.size };
  }

  /** The active multi-stream files. */
  activeMulti(): string[] {
    return [...this.#multi.keys()].sort();
  }

  /** Sends buffered lines now (the flush timer calls this). */
  flush(): void {
    if (this.#buffer.length === 0) return;
    const data = this.#buffer.slice(-this.#deps.maxLines());
    this.#buffer = [];
    this.#deps.push({ type: "log_lines", data });
  }

  /** Stops every stream. */
  async stopAll(): Promise<void> {
    await this.stopSingle();
    await this.stopMulti([], true);
    this.#cancelFlush?.();
    this.#cancelFlush = null;
  }

  #prepare(line: string, source?: string): ParsedLine {
    const parsed = parseLine(line);
    const out = this.#deps.mask() ? maskLine(parsed) : parsed;
    return source === undefined ? out : { ...out, _source_file: source };
  }

  #tailer(path: string, source: string | undefined): Tailer {
    return new Tailer({
      path,
      clock: this.#deps.clock,
      pollMs: this.#deps.pollMs(),
      onLines: (lines) => {
        for (const l of lines) this.#buffer.push(this.#prepare(l, source));
        const cap = this.#deps.maxLines() * 4;
        if (this.#buffer.length > cap) this.#buffer = this.#buffer.slice(-cap);
      },
      onError: (err) => this.#deps.logger.debug(`Tail of ${path} failed: ${err}`),
    });
  }

  #armFlush(): void {
    if (this.#cancelFlush || (!this.#single && this.#multi.size === 0)) return;
    this.#cancelFlush = this.#deps.clock.setInterval(() => this.flush(), this.#deps.pollMs());
  }

  #disarmIfIdle(): void {
    if (this.#single || this.#multi.size > 0) return;
    this.flush();
    this.#cancelFlush?.();
    this.#cancelFlush = null;
    this.#buffer = [];
  }
}
