/**
 * A conversation with a Marlin printer over a {@linkcode PrinterTransport}: the handshake
 * (`start` or a short wait, `M110 N0`, `M115`), numbered lines with resends, `ok` flow control,
 * each command's answer, long commands that answer `busy`, temperature reports (`M155` where the
 * firmware can, else `M105` polls), halts, restarts of the board and a silent printer.
 *
 * @module
 */
import type { Clock } from "../../clock.ts";
import { messageOf } from "../../error.ts";
import type { PrinterTransport } from "../transport.ts";
import {
  PrinterDisconnectedError,
  PrinterHaltedError,
  PrinterTimeoutError,
  silenceMessage,
} from "./errors.ts";
import { cleanCommand } from "./framing.ts";
import { LineDecoder } from "./line_decoder.ts";
import { eventOf, type MarlinEvent, type SessionState } from "./events.ts";
import { type FirmwareInfo, firmwareInfo, parseLine } from "./responses.ts";
import { type Sendable, SendQueue } from "./send_queue.ts";
import { type MarlinSessionOptions, type SessionTiming, sessionTiming } from "./session_options.ts";
import type { Temperatures } from "./temperatures.ts";

export type { MarlinSessionOptions };

interface Command extends Sendable {
  answer: string[];
  resolve(lines: string[]): void;
  reject(err: Error): void;
}

/** Lines kept of one command's answer (an `M20` of a full SD card is long; a flood is not). */
const MAX_ANSWER_LINES = 1000;
const encoder = new TextEncoder();

/**
 * One connection to a Marlin printer. Call {@linkcode connect} once; {@linkcode send} queues a
 * command and resolves with the lines answered to it, its `ok` last.
 */
export class MarlinSession {
  readonly #transport: PrinterTransport;
  readonly #clock: Clock;
  readonly #queue: SendQueue<Command>;
  readonly #decoder: LineDecoder;
  readonly #timing: SessionTiming;
  #listeners = new Set<(event: MarlinEvent) => void>();
  #state: SessionState = "connecting";
  #message: string | null = null;
  #firmware: FirmwareInfo | null = null;
  #reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  #ready: Promise<FirmwareInfo> | null = null;
  /** Counts handshakes: a handshake that a board restart replaced stops. */
  #generation = 0;
  #handshaken = false;
  #startWaiter: (() => void) | null = null;
  #afterResend = false;
  /** The previous line's `Error:` message (a halt's cause: `Thermal Runaway …`). */
  #lastError: string | null = null;
  /** An unreadable line came since the watchdog was armed (a wrong baud rate, noise). */
  #unreadable = false;
  #polling = false;
  #stopPolls: (() => void) | null = null;
  #stopWatchdog: (() => void) | null = null;
  #writes: Promise<void> = Promise.resolve();

  constructor(transport: PrinterTransport, options: MarlinSessionOptions = {}) {
    const timing = sessionTiming(options);
    this.#transport = transport;
    this.#clock = timing.clock;
    this.#queue = new SendQueue({
      maxInFlight: options.maxInFlight,
      capacity: options.queueSize,
      historySize: options.historySize,
    });
    this.#decoder = new LineDecoder({ maxLineBytes: options.maxLineBytes });
    this.#timing = timing;
  }

  /** Where the session stands. */
  get state(): SessionState {
    return this.#state;
  }

  /** What the last `M115` told, null before it answered. */
  get firmware(): FirmwareInfo | null {
    return this.#firmware;
  }

  /** Subscribes to the session's events; returns the unsubscribe function. */
  subscribe(listener: (event: MarlinEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Starts reading and shakes hands; resolves once the session is operational (after a board
   * restart during the handshake, once the next handshake is done). Rejects with a
   * `PrinterTimeoutError` (no answer), `PrinterHaltedError` or `PrinterDisconnectedError`.
   */
  connect(): Promise<FirmwareInfo> {
    if (this.#state === "closed") return Promise.reject(this.#closedError());
    if (!this.#reader) {
      this.#reader = this.#transport.readable.getReader();
      void this.#read(this.#reader);
      this.#restart(false);
    }
    return this.#settled();
  }

  /**
   * Queues a command (its `;` comment stripped) and resolves with the lines the printer answered
   * to it, its `ok` last. Rejects with a `UsageError` (empty, more than one line),
   * `QueueFullError`, `PrinterHaltedError`, `PrinterDisconnectedError` or `PrinterTimeoutError`.
   */
  async send(command: string): Promise<string[]> {
    return await this.#enqueue(cleanCommand(command), false);
  }

  /** Acts as if an `ok` had come (OctoPrint's `fake_ack`), to unstick a lost acknowledgement. */
  fakeAck(): void {
    this.#disarm();
    this.#acknowledge("ok");
    this.#pump();
  }

  /** Closes the line; what waits is rejected with a `PrinterDisconnectedError`. */
  async close(): Promise<void> {
    this.#shutdown("Closed by the host");
    await this.#reader?.cancel().catch(() => {});
    await this.#transport.close();
  }

  async #settled(): Promise<FirmwareInfo> {
    for (;;) {
      const ready = this.#ready!;
      try {
        return await ready;
      } catch (err) {
        if (ready === this.#ready) throw err;
      }
    }
  }

  /** Fails what was sent or waits, forgets the numbering and shakes hands again. */
  #restart(afterStart: boolean): void {
    const generation = ++this.#generation;
    this.#handshaken = false;
    this.#stopTimers();
    this.#failAll(new PrinterDisconnectedError("The printer restarted before it answered"), true);
    this.#setState("connecting", null);
    this.#ready = this.#handshake(generation, afterStart);
    this.#ready.catch(() => {}); // connect() reports it; the state tells every listener
  }

  async #handshake(generation: number, afterStart: boolean): Promise<FirmwareInfo> {
    const current = () => {
      if (this.#state === "closed") throw this.#closedError();
      if (generation !== this.#generation) {
        throw new PrinterDisconnectedError("The printer restarted during the handshake");
      }
    };
    if (!afterStart) await this.#waitForStart();
    current();
    await this.#enqueue("M110 N0", true);
    current();
    const firmware = firmwareInfo(await this.#enqueue("M115", true));
    current();
    this.#firmware = firmware;
    this.#emit({ type: "firmware", firmware });
    if (firmware.capabilities.AUTOREPORT_TEMP) {
      const answer = await this.#enqueue(`M155 S${this.#timing.reportSeconds}`, true);
      current();
      if (answer.some((line) => parseLine(line).kind === "unknownCommand")) this.#startPolls();
    } else this.#startPolls();
    this.#handshaken = true;
    this.#setState("operational", null);
    this.#pump();
    return firmware;
  }

  #waitForStart(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        cancel();
        this.#startWaiter = null;
        resolve();
      };
      const cancel = this.#clock.setTimeout(done, this.#timing.startTimeoutMs);
      this.#startWaiter = done;
    });
  }

  #startPolls(): void {
    this.#stopPolls = this.#clock.setInterval(() => {
      if (this.#polling || this.#state !== "operational") return;
      this.#polling = true;
      this.#enqueue("M105", true).catch(() => {}).finally(() => {
        this.#polling = false;
      });
    }, this.#timing.reportSeconds * 1000);
  }

  #enqueue(command: string, internal: boolean): Promise<string[]> {
    if (this.#state === "closed") return Promise.reject(this.#closedError());
    if (this.#state === "halted") {
      return Promise.reject(new PrinterHaltedError(`The printer halted: ${this.#message}`));
    }
    if (this.#state === "error" && !this.#handshaken && !internal) {
      return Promise.reject(new PrinterTimeoutError(this.#message ?? "The printer did not answer"));
    }
    return new Promise((resolve, reject) => {
      this.#queue.push({ command, internal, answer: [], resolve, reject });
      this.#pump();
    });
  }

  /** Writes what the window allows and keeps the watchdog armed while a line waits. */
  #pump(): void {
    if (this.#state === "halted" || this.#state === "closed" || this.#startWaiter) return;
    const sendWaiting = this.#handshaken && this.#state !== "connecting";
    for (let line = this.#queue.next(sendWaiting); line; line = this.#queue.next(sendWaiting)) {
      this.#write(line.text);
    }
    if (this.#queue.inFlight === 0) this.#disarm();
    else if (!this.#stopWatchdog) {
      const ms = this.#handshaken ? this.#timing.answerTimeoutMs : this.#timing.connectTimeoutMs;
      this.#stopWatchdog = this.#clock.setTimeout(() => this.#timedOut(ms), ms);
    }
  }

  #write(text: string): void {
    this.#emit({ type: "line", direction: "sent", text });
    const bytes = encoder.encode(`${text}\n`);
    this.#writes = this.#writes.then(() => this.#transport.write(bytes)).catch((err) =>
      this.#lost(err)
    );
  }

  async #read(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    let failure: unknown = null;
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        for (const item of this.#decoder.push(value)) {
          if (item.type === "line") this.#onLine(item.text);
          else {
            this.#warn(`The printer sent a line longer than ${item.bytes} bytes; it was dropped`);
          }
        }
      }
    } catch (err) {
      failure = err;
    }
    this.#lost(failure);
  }

  #onLine(text: string): void {
    if (this.#state === "closed") return;
    this.#emit({ type: "line", direction: "received", text });
    const line = parseLine(text);
    const afterResend = this.#afterResend;
    this.#afterResend = line.kind === "resend";
    const lastError = this.#lastError;
    this.#lastError = line.kind === "error" ? line.message : null;
    if (line.kind === "unknown") this.#unreadable = true;
    else if (line.kind !== "wait") { // `wait`: idle, so an `ok` was lost; no sign of progress
      this.#disarm(); // the printer is alive: the watchdog counts from now
      if (this.#state === "error" && this.#handshaken) this.#setState("operational", null);
    }
    switch (line.kind) {
      case "ok":
        if (line.temperatures) this.#temperatures(line.temperatures);
        if (!afterResend) this.#acknowledge(text); // else: the `ok` of the resend request
        break;
      case "resend":
        if (!this.#queue.resend(line.line)) {
          this.#warn(
            `The printer asked for line ${line.line} again, which the host does not hold: ` +
              "numbering starts again with M110",
          );
          this.#queue.renumber(internalCommand("M110"));
        }
        break;
      case "start":
        if (this.#startWaiter) this.#startWaiter();
        else this.#restart(true);
        return;
      case "halt":
        return this.#halt(lastError ? `${line.message} (${lastError})` : line.message);
      case "busy":
      case "wait":
      case "empty":
      case "lineError":
        break;
      default: {
        const event = eventOf(line, text, this.#clock.now());
        if (event) this.#emit(event);
        this.#collect(text);
      }
    }
    this.#pump();
  }

  #temperatures(temperatures: Temperatures): void {
    this.#emit({ type: "temperatures", temperatures, time: this.#clock.now() });
  }

  /** Adds a line to the answer of the command it belongs to. */
  #collect(text: string): void {
    const answer = this.#queue.current()?.answer;
    if (answer && answer.length < MAX_ANSWER_LINES) answer.push(text);
  }

  #acknowledge(text: string): void {
    const command = this.#queue.ack();
    if (!command) return; // an `ok` nobody waited for
    command.answer.push(text);
    command.resolve(command.answer);
  }

  #timedOut(ms: number): void {
    this.#stopWatchdog = null;
    // Bytes without an end of line are noise too (at a wrong baud rate a `\n` is rare).
    const unreadable = this.#unreadable || this.#decoder.buffered > 0;
    const message = silenceMessage(ms, unreadable, this.#handshaken);
    this.#failAll(new PrinterTimeoutError(message));
    this.#setState("error", message);
  }

  #halt(message: string): void {
    this.#stopTimers();
    this.#failAll(new PrinterHaltedError(`The printer halted: ${message}`));
    this.#setState("halted", message);
  }

  #lost(failure: unknown): void {
    if (this.#state === "closed") return;
    this.#shutdown(
      failure === null
        ? "The line to the printer closed"
        : `The line to the printer failed: ${messageOf(failure)}`,
    );
    this.#transport.close().catch(() => {});
  }

  #shutdown(message: string): void {
    if (this.#state === "closed") return;
    this.#generation++;
    this.#stopTimers();
    this.#setState("closed", message);
    this.#startWaiter?.();
    this.#failAll(this.#closedError());
  }

  #closedError(): PrinterDisconnectedError {
    return new PrinterDisconnectedError(this.#message ?? "The connection to the printer is closed");
  }

  #failAll(error: Error, restart = false): void {
    this.#disarm();
    for (const command of this.#queue.clear(restart)) command.reject(error);
  }

  #disarm(): void {
    this.#stopWatchdog?.();
    this.#stopWatchdog = null;
    this.#unreadable = false;
  }

  #stopTimers(): void {
    this.#disarm();
    this.#stopPolls?.();
    this.#stopPolls = null;
  }

  #setState(state: SessionState, message: string | null): void {
    const previous = this.#state;
    this.#message = message;
    if (state === previous) return;
    this.#state = state;
    this.#emit({ type: "state", state, previous, message });
  }

  #warn(message: string): void {
    this.#emit({ type: "warning", message });
  }

  #emit(event: MarlinEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // One failing listener never stops the conversation or the other listeners.
      }
    }
  }
}

/** A command of the host's own whose answer nobody awaits. */
function internalCommand(command: string): Command {
  return { command, internal: true, answer: [], resolve: () => {}, reject: () => {} };
}
