/**
 * Which line the host writes next: the queue of commands waiting, their numbering, at most N
 * lines in flight (sent, their `ok` not yet come) and a bounded history of sent lines to answer
 * resend requests from. Pure bookkeeping: it writes nothing and knows no clock.
 *
 * @module
 */
import { frameLine } from "./framing.ts";
import { QueueFullError } from "./errors.ts";

/** A command to number and send. */
export interface Sendable {
  /** A clean one-line command (`cleanCommand()`). */
  readonly command: string;
  /** The host's own command (handshake, polling): before user commands, not counted in the bound. */
  readonly internal: boolean;
}

/** A line as written. */
export interface SentLine<T extends Sendable> {
  /** Its line number. */
  readonly n: number;
  readonly item: T;
  /** `N<n> <command>*<checksum>`, without line ending. */
  readonly text: string;
  /** Its `ok` came (and no resend of it is pending since). */
  acked: boolean;
}

/** Options of {@linkcode SendQueue}. */
export interface SendQueueOptions {
  /** Lines sent without their `ok` at most. @default 1 */
  maxInFlight?: number;
  /** Commands (not `internal`) waiting at most; one more is a `QueueFullError`. @default 100 */
  capacity?: number;
  /** Sent lines kept for resends (at least `maxInFlight`). @default 100 */
  historySize?: number;
}

const M110 = /^M110(?:\s|$)/i;

/**
 * Numbering, flow control and resends of a Marlin connection. A command `M110` is numbered as
 * `N<n> M110 N<n>` (the printer's next expected line becomes n+1) and starts a new history.
 */
export class SendQueue<T extends Sendable> {
  readonly #maxInFlight: number;
  readonly #capacity: number;
  readonly #historySize: number;
  #waiting: T[] = [];
  #inFlight: SentLine<T>[] = [];
  #history: SentLine<T>[] = [];
  #nextLine = 0;
  /** The next line to send; below `#nextLine` while resending from the history. */
  #cursor = 0;

  constructor(options: SendQueueOptions = {}) {
    this.#maxInFlight = positive("maxInFlight", options.maxInFlight ?? 1);
    this.#capacity = positive("capacity", options.capacity ?? 100);
    this.#historySize = positive("historySize", options.historySize ?? 100);
    if (this.#historySize < this.#maxInFlight) {
      throw new RangeError("Cannot create a send queue: 'historySize' is below 'maxInFlight'");
    }
  }

  /** Lines sent and not yet acknowledged. */
  get inFlight(): number {
    return this.#inFlight.length;
  }

  /** Commands waiting, the host's own included. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /**
   * Queues a command: the host's own before every user command (in their order), a user
   * command last; throws a `QueueFullError` when `capacity` user commands wait already.
   */
  push(item: T): void {
    if (item.internal) {
      const users = this.#waiting.findIndex((waiting) => !waiting.internal);
      return void this.#waiting.splice(users === -1 ? this.#waiting.length : users, 0, item);
    }
    if (this.#waiting.filter((w) => !w.internal).length >= this.#capacity) {
      throw new QueueFullError(`Cannot queue '${item.command}': ${this.#capacity} commands wait`);
    }
    this.#waiting.push(item);
  }

  /**
   * The line to write now, or null when the window is full or nothing waits. Resends go first;
   * a waiting command only when `sendWaiting` allows it (the host's own always).
   */
  next(sendWaiting = true): SentLine<T> | null {
    if (this.#inFlight.length >= this.#maxInFlight) return null;
    if (this.#cursor < this.#nextLine) {
      const line = this.#history[this.#cursor++ - this.#history[0]!.n]!;
      line.acked = false;
      this.#inFlight.push(line);
      return line;
    }
    const item = this.#waiting[0];
    if (!item || !(sendWaiting || item.internal)) return null;
    this.#waiting.shift();
    const n = this.#nextLine++;
    this.#cursor = this.#nextLine;
    const isM110 = M110.test(item.command);
    const line = {
      n,
      item,
      text: frameLine(n, isM110 ? `M110 N${n}` : item.command),
      acked: false,
    };
    if (isM110) this.#history = [];
    this.#history.push(line);
    if (this.#history.length > this.#historySize) this.#history.shift();
    this.#inFlight.push(line);
    return line;
  }

  /** An `ok` came: the oldest line in flight is done; returns its command (none: nothing in flight). */
  ack(): T | undefined {
    const line = this.#inFlight.shift();
    if (line) line.acked = true;
    return line?.item;
  }

  /** The command an answer now belongs to: the oldest in flight. */
  current(): T | undefined {
    return this.#inFlight[0]?.item;
  }

  /**
   * The printer asks for line `n` again. When the history holds it, the lines from `n` on are
   * sent again (they leave the window until then) and this returns true. Otherwise (a line
   * forgotten, before the last `M110`, not sent yet, not a line number at all) it returns false
   * and changes nothing: call {@linkcode renumber}.
   */
  resend(n: number): boolean {
    const first = this.#history[0]?.n;
    if (!Number.isSafeInteger(n) || first === undefined || n < first || n > this.#nextLine) {
      return false;
    }
    this.#inFlight = this.#inFlight.filter((line) => line.n < n);
    this.#cursor = Math.min(this.#cursor, n);
    return true;
  }

  /**
   * Starts the numbering anew after a resend request it cannot answer: `m110` (a command
   * `M110`) goes first, then every sent line without its `ok`, with new numbers. An `M110`
   * among them takes its place (a printer that asks again and again grows no queue).
   */
  renumber(m110: T): void {
    const lost = this.#unacked();
    const resets = lost.filter((item) => M110.test(item.command));
    this.#inFlight = [];
    this.#history = [];
    this.#cursor = this.#nextLine;
    this.#waiting.unshift(
      ...(resets.length ? resets : [m110]),
      ...lost.filter((item) => !resets.includes(item)),
    );
  }

  /**
   * Empties the queue: returns every command in flight or waiting (to be failed by the caller).
   * `restart` also forgets the numbering (the board restarted: the next line is 0).
   */
  clear(restart = false): T[] {
    const items = [...new Set([...this.#unacked(), ...this.#waiting])];
    for (const line of this.#history) line.acked = true;
    this.#inFlight = [];
    this.#waiting = [];
    this.#cursor = this.#nextLine;
    if (restart) {
      this.#history = [];
      this.#nextLine = this.#cursor = 0;
    }
    return items;
  }

  /** The commands of the lines in flight or to be sent again, oldest first. */
  #unacked(): T[] {
    const lines = [...this.#inFlight, ...this.#history.filter((line) => !line.acked)];
    return [...new Set(lines.map((line) => line.item))];
  }
}

function positive(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`Cannot create a send queue: '${name}' must be a positive integer`);
  }
  return value;
}
