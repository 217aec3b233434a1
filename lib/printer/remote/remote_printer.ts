/**
 * The host's side of the printer process's socket: a {@linkcode Printer} whose sync reads answer
 * from a mirror the process keeps up to date, and whose commands travel as requests. When the
 * socket drops (the printer process restarting), it reconnects with backoff and takes the full
 * state again; listeners stay subscribed and hear what changed meanwhile.
 *
 * Deno flags: `--allow-read=<path> --allow-write=<path> --allow-net=unix:<path>`.
 *
 * @module
 */
import { UnreachableError, UpstreamTimeoutError } from "../../error.ts";
import { isPlainObject } from "../../shared/json_object.ts";
import type { DecodedLine } from "../marlin/mod.ts";
import type {
  ConnectionStatus,
  ConnectOptions,
  HeaterName,
  JobStatus,
  Printer,
  PrinterEvent,
  PrinterSnapshot,
  TemperatureSample,
  TerminalLine,
} from "../printer.ts";
import { LineConn } from "./line_conn.ts";
import { PrinterMirror } from "./mirror.ts";
import { encodeLine, type Method, type PrinterView, type ViewUpdate } from "./protocol.ts";
import { fromWireError, type WireError } from "./wire_errors.ts";

/** Options of {@linkcode RemotePrinter}. */
export interface RemotePrinterOptions {
  /** The printer process's socket. */
  path: string;
  /** Longest wait for an answer. @default 60000 */
  requestTimeoutMs?: number;
  /**
   * Longest wait for `commands()`, which answers once the printer acknowledged each line (a
   * `G28` or `M109` takes minutes). @default 900000
   */
  commandTimeoutMs?: number;
  /** First wait before connecting again; it doubles at each failure. @default 100 */
  reconnectMinMs?: number;
  /** Longest wait before connecting again. @default 5000 */
  reconnectMaxMs?: number;
  /** Longest line taken from the printer process (the full state is one). @default 64 MiB */
  maxLineBytes?: number;
}

interface Pending {
  method: Method;
  resolve(value: unknown): void;
  reject(err: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

/** A printer served by the printer process, reached over its socket. */
export class RemotePrinter implements Printer, AsyncDisposable {
  readonly path: string;
  readonly #options: Required<RemotePrinterOptions>;
  readonly #mirror = new PrinterMirror();
  readonly #listeners = new Set<(event: PrinterEvent) => void>();
  readonly #pending = new Map<number, Pending>();
  readonly #syncWaiters = new Set<(err?: Error) => void>();
  readonly #running: Promise<void>;
  #conn: LineConn | null = null;
  #linked = false;
  #lastProblem = "not connected yet";
  #nextId = 1;
  #closed = false;
  #wake: (() => void) | null = null;

  /** Starts connecting (in the background; see {@linkcode RemotePrinter.synced}). */
  constructor(options: RemotePrinterOptions) {
    this.path = options.path;
    this.#options = {
      path: options.path,
      requestTimeoutMs: options.requestTimeoutMs ?? 60_000,
      commandTimeoutMs: options.commandTimeoutMs ?? 15 * 60_000,
      reconnectMinMs: options.reconnectMinMs ?? 100,
      reconnectMaxMs: options.reconnectMaxMs ?? 5000,
      maxLineBytes: options.maxLineBytes ?? 64 * 1024 * 1024,
    };
    this.#running = this.#run();
  }

  /** Whether the printer process is connected and its state was received. */
  get linked(): boolean {
    return this.#linked;
  }

  /**
   * Resolves once the printer process's state is here (at once when linked).
   *
   * @throws {UnreachableError} when it is not within `timeoutMs`, or the printer is closed.
   */
  synced(timeoutMs = 10_000): Promise<void> {
    if (this.#linked) return Promise.resolve();
    if (this.#closed) return Promise.reject(this.#unreachable());
    const { promise, resolve, reject } = Promise.withResolvers<void>();
    const done = (err?: Error) => {
      clearTimeout(timer);
      this.#syncWaiters.delete(done);
      if (err) reject(err);
      else resolve();
    };
    const timer = setTimeout(() => done(this.#unreachable()), timeoutMs);
    this.#syncWaiters.add(done);
    return promise;
  }

  async #run(): Promise<void> {
    let delay = this.#options.reconnectMinMs;
    while (!this.#closed) {
      let socket: Deno.UnixConn | null = null;
      try {
        socket = await Deno.connect({ transport: "unix", path: this.path });
      } catch (err) {
        this.#lastProblem = err instanceof Error ? err.message : String(err);
      }
      if (socket && this.#closed) socket.close();
      else if (socket) {
        const conn = new LineConn(socket, {
          maxLineBytes: this.#options.maxLineBytes,
          onLine: (line) => this.#receive(conn, line),
        });
        this.#conn = conn;
        await conn.done;
        this.#conn = null;
        if (this.#linked) delay = this.#options.reconnectMinMs;
        this.#linked = false;
        this.#lastProblem = "the connection ended";
        this.#failPending();
      }
      if (this.#closed) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.#wake = null;
      delay = Math.min(delay * 2, this.#options.reconnectMaxMs);
    }
  }

  #receive(conn: LineConn, line: DecodedLine): void {
    if (line.type === "overflow") {
      this.#lastProblem = `it sent a line longer than ${this.#options.maxLineBytes} bytes`;
      return conn.close(); // the mirror missed something: take the full state again
    }
    let message: unknown;
    try {
      message = JSON.parse(line.text);
    } catch {
      return;
    }
    if (!isPlainObject(message)) return;
    if (isPlainObject(message.full)) {
      const events = this.#mirror.replace(message.full as unknown as PrinterView);
      this.#linked = true;
      for (const done of this.#syncWaiters) done();
      for (const event of events) this.#emit(event);
    } else if (isPlainObject(message.event) && isPlainObject(message.update)) {
      if (!this.#linked) return;
      this.#mirror.update(message.update as unknown as ViewUpdate);
      this.#emit(message.event as unknown as PrinterEvent);
    } else if (typeof message.id === "number") {
      const pending = this.#pending.get(message.id);
      if (!pending) return;
      this.#pending.delete(message.id);
      clearTimeout(pending.timer);
      if (isPlainObject(message.error)) {
        pending.reject(fromWireError(message.error as unknown as WireError));
      } else pending.resolve(message.result);
    } else if (message.id === null && isPlainObject(message.error)) {
      this.#lastProblem = String(message.error.message); // refused: too many clients
    }
  }

  #emit(event: PrinterEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // One failing listener never blocks the others.
      }
    }
  }

  #unreachable(): UnreachableError {
    return new UnreachableError(
      `Cannot reach the printer process at ${this.path}: ` +
        (this.#closed ? "this connection to it is closed" : `${this.#lastProblem}; is it running?`),
      { code: "printer_process_unreachable" },
    );
  }

  #failPending(): void {
    for (const [id, pending] of this.#pending) {
      this.#pending.delete(id);
      clearTimeout(pending.timer);
      pending.reject(
        new UnreachableError(
          `The printer process at ${this.path} went away before it answered ` +
            `'${pending.method}' (whether it was done is unknown)`,
          { code: "printer_process_lost" },
        ),
      );
    }
  }

  #call<M extends Method>(method: M, params: Parameters<Printer[M]>): Promise<unknown> {
    const conn = this.#conn;
    if (!this.#linked || conn === null || conn.closed) return Promise.reject(this.#unreachable());
    const id = this.#nextId++;
    const { promise, resolve, reject } = Promise.withResolvers<unknown>();
    const ms = method === "commands"
      ? this.#options.commandTimeoutMs
      : this.#options.requestTimeoutMs;
    const timer = setTimeout(() => {
      this.#pending.delete(id);
      reject(
        new UpstreamTimeoutError(
          `The printer process did not answer '${method}' within ${ms / 1000} s`,
          { code: "printer_process_timeout" },
        ),
      );
    }, ms);
    this.#pending.set(id, { method, resolve, reject, timer });
    conn.send(encodeLine({ id, method, params }));
    return promise;
  }

  /** Stops reconnecting, closes the socket; calls in flight fail. Safe to call more than once. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#conn?.close();
    this.#wake?.();
    await this.#running;
    this.#failPending();
    for (const done of this.#syncWaiters) done(this.#unreachable());
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  snapshot(): PrinterSnapshot {
    return this.#mirror.view.snapshot;
  }

  connection(): ConnectionStatus {
    return this.#mirror.view.connection;
  }

  job(): JobStatus {
    return this.#mirror.view.job;
  }

  history(): TemperatureSample[] {
    return this.#mirror.view.history.slice();
  }

  terminal(): TerminalLine[] {
    return this.#mirror.view.terminal.slice();
  }

  subscribe(listener: (event: PrinterEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async ports(): Promise<string[]> {
    return await this.#call("ports", []) as string[];
  }

  async connect(options: ConnectOptions): Promise<void> {
    await this.#call("connect", [options]);
  }

  async disconnect(): Promise<void> {
    await this.#call("disconnect", []);
  }

  async fakeAck(): Promise<void> {
    await this.#call("fakeAck", []);
  }

  async setTargets(targets: Record<HeaterName, number>): Promise<void> {
    await this.#call("setTargets", [targets]);
  }

  async commands(lines: string[]): Promise<void> {
    await this.#call("commands", [lines]);
  }

  async selectJob(name: string | null): Promise<void> {
    await this.#call("selectJob", [name]);
  }

  async startJob(name: string): Promise<void> {
    await this.#call("startJob", [name]);
  }

  async pauseJob(): Promise<void> {
    await this.#call("pauseJob", []);
  }

  async resumeJob(): Promise<void> {
    await this.#call("resumeJob", []);
  }

  async cancelJob(): Promise<void> {
    await this.#call("cancelJob", []);
  }

  async restartJob(): Promise<void> {
    await this.#call("restartJob", []);
  }
}
