/**
 * Following a growing log file: new complete lines are delivered as they appear. The file is
 * read from the handle opened (and identity-checked) by name, never by name again; after
 * every read the name is checked to still be that file (device and inode, not a link). When
 * it is not (rotation, a swap), the old handle is drained, and the name is opened and checked
 * again: a name that now leads outside the log folder is never streamed. Truncation in place
 * restarts from offset 0; a missing file is waited for. Changes are noticed through a
 * {@linkcode ChangeFeed} (a file watch), with a slow safety poll, or by polling alone when the
 * folder cannot be watched.
 *
 * Memory and time stay bounded whatever is appended: new bytes are read in chunks of
 * {@linkcode TAIL_CHUNK_BYTES} until the tail has caught up with the size seen when the check
 * began, and a line longer than {@linkcode MAX_TAIL_LINE_BYTES} is cut as search cuts it
 * (`./tail_lines.ts`). Between two chunks the tail waits for the next turn of the event loop
 * ({@linkcode nextTurn}, a timer), so the requests, timers and sockets that are ready run
 * first: a 200 MiB line is 200 short turns, never one long one, whatever the reader's promises do.
 *
 * @module
 */
import { dirname } from "node:path";
import type { Clock } from "../../lib/clock.ts";
import { AppError, NotFoundError } from "../../lib/error.ts";
import { isSameFile } from "../../lib/named_file.ts";
import { LineSplitter, type SplitLines } from "./tail_lines.ts";
import type { ChangeFeed } from "./watch.ts";

export { MAX_TAIL_LINE_BYTES } from "./tail_lines.ts";

/** Most bytes read at once (one turn of the event loop each). */
export const TAIL_CHUNK_BYTES = 1024 * 1024;

/**
 * Waits for the next turn of the event loop: a zero-delay timer, so that what is ready (other
 * requests' I/O, timers) runs first. A resolved promise (a microtask) or a message port would let
 * the tail run on before any of it.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** An opened, checked file. */
export interface OpenedTailFile {
  file: Deno.FsFile;
  /** The checked real path. */
  path: string;
}

/** Poll interval when the folder cannot be watched. */
export const FALLBACK_POLL_MS = 250;

/** Options of {@linkcode Tailer}. */
export interface TailerOptions {
  /** Opens the file by name and checks it (every reopen goes through here). */
  open(): Promise<OpenedTailFile>;
  /** The first opened file (else `open()` is called at start). */
  initial?: OpenedTailFile;
  clock: Clock;
  /** Safety poll interval in ms while changes are watched. */
  pollMs: number;
  /** Change notifications; without it (or when it cannot watch) the tailer polls. */
  feed?: ChangeFeed | null;
  /** Poll interval without a feed. @default FALLBACK_POLL_MS */
  fallbackPollMs?: number;
  /**
   * Receives new complete lines (without line ends; a line longer than `maxLineBytes` cut with
   * the marker) and their sizes in bytes.
   */
  onLines(lines: string[], sizes: number[]): void;
  /** Receives read failures and refused reopens (the tailer keeps trying). */
  onError?(err: unknown): void;
  /** Most bytes read at once. @default TAIL_CHUNK_BYTES */
  chunkBytes?: number;
  /** Most bytes of one line kept. @default MAX_TAIL_LINE_BYTES */
  maxLineBytes?: number;
  /** Waits between two chunks of one check. @default nextTurn */
  nextTurn?: () => Promise<void>;
}

/** Tails one file. */
export class Tailer {
  #opts: TailerOptions;
  #current: OpenedTailFile | null = null;
  #offset = 0;
  #splitter: LineSplitter;
  #cancel: (() => void) | null = null;
  #unwatch: (() => void) | null = null;
  #busy: Promise<void> | null = null;
  #again = false;
  /** After a refused reopen: no new try before this time (backs off 1 s, 2 s ... 60 s). */
  #retryAt = 0;
  #backoffMs = 0;

  constructor(options: TailerOptions) {
    this.#opts = options;
    this.#splitter = new LineSplitter(options.maxLineBytes);
  }

  /** The checked path being read (null while waiting for the file). */
  get path(): string | null {
    return this.#current?.path ?? null;
  }

  /** Opens the file, remembers its end, then follows it. Only lines written later are delivered. */
  async start(): Promise<void> {
    const current = this.#opts.initial ?? await this.#opts.open();
    this.#current = current;
    this.#offset = (await current.file.stat()).size;
    this.#unwatch = this.#opts.feed?.subscribe(dirname(current.path), () => void this.poll()) ??
      null;
    const every = this.#unwatch
      ? this.#opts.pollMs
      : Math.min(this.#opts.pollMs, this.#opts.fallbackPollMs ?? FALLBACK_POLL_MS);
    this.#cancel = this.#opts.clock.setInterval(() => void this.poll(), every);
  }

  /** Stops following (waits for a read in progress) and closes the file. */
  async stop(): Promise<void> {
    this.#cancel?.();
    this.#cancel = null;
    this.#unwatch?.();
    this.#unwatch = null;
    await this.#busy;
    this.#current?.file.close();
    this.#current = null;
  }

  /** Whether the tailer is following its file. */
  get running(): boolean {
    return this.#cancel !== null;
  }

  /** Checks the file once (checks never overlap; a request during one runs after it). */
  poll(): Promise<void> {
    if (this.#busy) {
      this.#again = true;
      return this.#busy;
    }
    this.#busy = (async () => {
      do {
        this.#again = false;
        await this.#pollOnce().catch((err) => this.#opts.onError?.(err));
      } while (this.#again && this.#cancel !== null);
    })().finally(() => {
      this.#busy = null;
    });
    return this.#busy;
  }

  async #pollOnce(): Promise<void> {
    if (!this.#current) {
      if (!await this.#reopen()) return;
    }
    await this.#readNew(this.#current!.file);
    if (await isSameFile(this.#current!.file, this.#current!.path)) return;
    // The name now names another file (rotated, replaced, removed): finish the old one.
    await this.#readNew(this.#current!.file);
    this.#flushPartial();
    this.#current!.file.close();
    this.#current = null;
    if (await this.#reopen()) await this.#readNew(this.#current!.file);
  }

  /**
   * Opens the name again (checked); false while it is missing or refused. A refusal (a link to
   * elsewhere, no permission) is reported once and retried with a growing delay, so a refused
   * name cannot make the tail (and the security log it writes to) spin on every file event.
   */
  async #reopen(): Promise<boolean> {
    if (this.#cancel === null) return false;
    const now = this.#opts.clock.now();
    if (now < this.#retryAt) return false;
    try {
      this.#current = await this.#opts.open();
      this.#offset = 0;
      this.#backoffMs = 0;
      return true;
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      if (!(err instanceof NotFoundError)) {
        if (this.#backoffMs === 0) this.#opts.onError?.(err);
        this.#backoffMs = Math.min(Math.max(1000, this.#backoffMs * 2), 60_000);
        this.#retryAt = now + this.#backoffMs;
      }
      return false;
    }
  }

  /** Reads from the offset up to the size the file has now, chunk by chunk. */
  async #readNew(file: Deno.FsFile): Promise<void> {
    const size = (await file.stat()).size;
    if (size < this.#offset) {
      this.#flushPartial();
      this.#offset = 0;
    }
    if (size <= this.#offset) return;
    await file.seek(this.#offset, Deno.SeekMode.Start);
    const chunk = new Uint8Array(
      Math.min(size - this.#offset, this.#opts.chunkBytes ?? TAIL_CHUNK_BYTES),
    );
    const turn = this.#opts.nextTurn ?? nextTurn;
    while (this.#offset < size) {
      const n = await file.read(chunk.subarray(0, Math.min(chunk.length, size - this.#offset)));
      if (n === null) break;
      this.#offset += n;
      this.#deliver(this.#splitter.push(chunk.subarray(0, n)));
      if (this.#cancel === null || this.#offset >= size) break; // stopped meanwhile, or done
      await turn();
      if (this.#cancel === null) break;
    }
  }

  #deliver(found: SplitLines): void {
    if (found.lines.length > 0) this.#opts.onLines(found.lines, found.sizes);
  }

  #flushPartial(): void {
    this.#deliver(this.#splitter.flush());
  }
}

/**
 * The last `count` lines of a file (a path, or a handle the caller keeps), reading at most
 * `maxBytes` from its end.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lastLines } from "./tail.ts";
 * const p = await Deno.makeTempFile();
 * await Deno.writeTextFile(p, "a\nb\nc\n");
 * assert.equal((await lastLines(p, 2)).join(), "b,c");
 * await Deno.remove(p);
 * ```
 */
export async function lastLines(
  source: string | Deno.FsFile,
  count: number,
  maxBytes = 1024 * 1024,
): Promise<string[]> {
  const file = typeof source === "string" ? await Deno.open(source, { read: true }) : source;
  try {
    const size = (await file.stat()).size;
    const start = Math.max(0, size - maxBytes);
    await file.seek(start, Deno.SeekMode.Start);
    const buf = new Uint8Array(size - start);
    let got = 0;
    while (got < buf.length) {
      const n = await file.read(buf.subarray(got));
      if (n === null) break;
      got += n;
    }
    const lines = new TextDecoder().decode(buf.subarray(0, got)).split("\n");
    if (start > 0) lines.shift();
    if (lines.at(-1) === "") lines.pop();
    return lines.slice(-count).map((l) => l.endsWith("\r") ? l.slice(0, -1) : l);
  } finally {
    if (typeof source === "string") file.close();
  }
}
