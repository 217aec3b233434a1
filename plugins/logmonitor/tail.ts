/**
 * Following a growing log file by polling: new complete lines are delivered as they appear;
 * rotation (the path now names another file) restarts from the new file's beginning and
 * truncation in place restarts from offset 0. A missing file is waited for.
 *
 * @module
 */
import type { Clock } from "../../lib/clock.ts";

/** Options of {@linkcode Tailer}. */
export interface TailerOptions {
  path: string;
  clock: Clock;
  /** Poll interval in ms. */
  pollMs: number;
  /** Receives new complete lines (without line ends). */
  onLines(lines: string[]): void;
  /** Receives read failures (the tailer keeps polling). */
  onError?(err: unknown): void;
  /** Most bytes read per poll. @default 4 MiB */
  maxReadBytes?: number;
}

/** Tails one file. */
export class Tailer {
  readonly path: string;
  #opts: TailerOptions;
  #ino: number | null = null;
  #born: number | null = null;
  #missing = false;
  #offset = 0;
  #partial: Uint8Array = new Uint8Array(0);
  #cancel: (() => void) | null = null;
  #busy: Promise<void> | null = null;
  #decoder = new TextDecoder("utf-8", { fatal: false });

  constructor(options: TailerOptions) {
    this.path = options.path;
    this.#opts = options;
  }

  /** Remembers the file's identity and end, then polls. Only lines written later are delivered. */
  async start(): Promise<void> {
    const st = await Deno.stat(this.path);
    this.#ino = st.ino;
    this.#born = st.birthtime?.getTime() ?? null;
    this.#offset = st.size;
    this.#cancel = this.#opts.clock.setInterval(() => void this.poll(), this.#opts.pollMs);
  }

  /** Stops polling (waits for a poll in progress). */
  async stop(): Promise<void> {
    this.#cancel?.();
    this.#cancel = null;
    await this.#busy;
  }

  /** Whether the tailer is polling. */
  get running(): boolean {
    return this.#cancel !== null;
  }

  /** Checks the file once (polls never overlap). */
  poll(): Promise<void> {
    if (this.#busy) return this.#busy;
    this.#busy = this.#pollOnce().catch((err) => this.#opts.onError?.(err)).finally(() => {
      this.#busy = null;
    });
    return this.#busy;
  }

  async #pollOnce(): Promise<void> {
    let st: Deno.FileInfo;
    try {
      st = await Deno.stat(this.path);
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) {
        this.#missing = true;
        return;
      }
      throw err;
    }
    const born = st.birthtime?.getTime() ?? null;
    // A new file: another inode, another birth time, or the path was missing in between
    // (a deleted file's inode can be reused at once).
    if (st.ino !== this.#ino || born !== this.#born || this.#missing) {
      this.#flushPartial();
      this.#ino = st.ino;
      this.#born = born;
      this.#missing = false;
      this.#offset = 0;
    } else if (st.size < this.#offset) {
      this.#flushPartial();
      this.#offset = 0;
    }
    if (st.size <= this.#offset) return;
    const want = Math.min(st.size - this.#offset, this.#opts.maxReadBytes ?? 4 * 1024 * 1024);
    const bytes = await this.#read(this.#offset, want);
    this.#offset += bytes.length;
    this.#deliver(bytes);
  }

  async #read(offset: number, length: number): Promise<Uint8Array> {
    const file = await Deno.open(this.path, { read: true });
    try {
      await file.seek(offset, Deno.SeekMode.Start);
      const out = new Uint8Array(length);
      let got = 0;
      while (got < length) {
        const n = await file.read(out.subarray(got));
        if (n === null) break;
        got += n;
      }
      return out.subarray(0, got);
    } finally {
      file.close();
    }
  }

  #deliver(bytes: Uint8Array): void {
    const data = new Uint8Array(this.#partial.length + bytes.length);
    data.set(this.#partial);
    data.set(bytes, this.#partial.length);
    const lines: string[] = [];
    let start = 0;
    for (let i = 0; i < data.length; i++) {
      if (data[i] !== 0x0a) continue;
      lines.push(this.#decode(data.subarray(start, i)));
      start = i + 1;
    }
    this.#partial = data.slice(start);
    if (lines.length > 0) this.#opts.onLines(lines);
  }

  #flushPartial(): void {
    if (this.#partial.length === 0) return;
    const line = this.#decode(this.#partial);
    this.#partial = new Uint8Array(0);
    this.#opts.onLines([line]);
  }

  #decode(bytes: Uint8Array): string {
    const s = this.#decoder.decode(bytes);
    return s.endsWith("\r") ? s.slice(0, -1) : s;
  }
}

/**
 * The last `count` lines of a file, reading at most `maxBytes` from its end.
 *
 * @example
 * ```ts
 * import { lastLines } from "./tail.ts";
 * const p = await Deno.makeTempFile();
 * await Deno.writeTextFile(p, "a\nb\nc\n");
 * console.assert((await lastLines(p, 2)).join() === "b,c");
 * await Deno.remove(p);
 * ```
 */
export async function lastLines(
  path: string,
  count: number,
  maxBytes = 1024 * 1024,
): Promise<string[]> {
  const file = await Deno.open(path, { read: true });
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
    file.close();
  }
}
