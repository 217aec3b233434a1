/**
 * Timeouts for model-server calls: a resettable watchdog for streams and a race helper for
 * promise-based APIs (the SDK can hang forever on a bad frame).
 *
 * @module
 */

/**
 * Told while a call waits for the model server: what the call does and the whole seconds it has
 * waited without a byte; `what` is null when bytes arrive or the call ends (the line goes away).
 */
export type WaitReporter = (what: string | null, seconds: number) => void;

/** Reports waits of at least a second, once a second, until stopped. */
class WaitTicker {
  readonly #what: string;
  readonly #report: WaitReporter | undefined;
  #since = performance.now();
  #shown = false;
  #interval: ReturnType<typeof setInterval> | undefined;

  constructor(what: string, report?: WaitReporter) {
    this.#what = what;
    this.#report = report;
    if (report) this.#interval = setInterval(() => this.#tick(), 1000);
  }

  #tick(): void {
    const seconds = Math.floor((performance.now() - this.#since) / 1000);
    if (seconds < 1) return;
    this.#shown = true;
    this.#report!(this.#what, seconds);
  }

  /** Bytes arrived: the wait starts over and the line goes away. */
  reset(): void {
    this.#since = performance.now();
    if (this.#shown) this.#report!(null, 0);
    this.#shown = false;
  }

  stop(): void {
    if (this.#interval !== undefined) clearInterval(this.#interval);
    this.#interval = undefined;
    this.reset();
  }
}

/** Options of {@linkcode Watchdog}. */
export interface WatchdogOptions {
  /** The silence allowed after the first activity. @default the first timeout */
  idleMs?: number;
  /** What the call does (for the wait reporter). */
  what?: string;
  /** Told about waits of a second or more. */
  onWait?: WaitReporter;
}

/**
 * An abort signal that fires when the server stays silent too long, or when the outer signal
 * aborts: `ms` until the first activity (the first byte), then `idleMs` between activities. Call
 * {@linkcode Watchdog.touch} on activity and {@linkcode Watchdog.clear} when done.
 */
export class Watchdog {
  readonly #ctl = new AbortController();
  /** The silence allowed right now, in milliseconds (first byte, then between bytes). */
  ms: number;
  readonly #idleMs: number;
  readonly #outer: AbortSignal | undefined;
  readonly #onOuter = () => this.#ctl.abort(this.#outer?.reason);
  readonly #ticker: WaitTicker;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #last = performance.now();
  #cleared = false;
  /** True once the timer (not the outer signal) aborted. */
  timedOut = false;

  constructor(ms: number, outer?: AbortSignal, options: WatchdogOptions = {}) {
    this.ms = ms;
    this.#idleMs = options.idleMs ?? ms;
    this.#outer = outer;
    this.#ticker = new WaitTicker(options.what ?? "answer", options.onWait);
    if (outer?.aborted) this.#ctl.abort(outer.reason);
    else outer?.addEventListener("abort", this.#onOuter, { once: true });
    this.#arm(this.ms);
  }

  /** The combined signal. */
  get signal(): AbortSignal {
    return this.#ctl.signal;
  }

  /** One timer; when it fires early (there was activity since), it waits for what is left. */
  #arm(delay: number): void {
    if (this.#cleared || this.#ctl.signal.aborted) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      const left = this.ms - (performance.now() - this.#last);
      if (left > 0) return this.#arm(left);
      this.timedOut = true;
      this.#ticker.stop();
      this.#ctl.abort(new DOMException("Timed out", "TimeoutError"));
    }, delay);
  }

  /**
   * Activity: the countdown restarts with the idle time. Called for every chunk of a stream, so
   * it only notes the time (a timer per chunk cost a client about a millisecond per request).
   */
  touch(): void {
    this.#last = performance.now();
    if (this.ms !== this.#idleMs) {
      this.ms = this.#idleMs;
      if (this.#timer !== undefined) clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    this.#ticker.reset();
    if (this.#timer === undefined) this.#arm(this.ms);
  }

  /** Stops the countdown and detaches from the outer signal. */
  clear(): void {
    this.#cleared = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#ticker.stop();
    this.#outer?.removeEventListener("abort", this.#onOuter);
  }
}

/**
 * Races a promise against a timeout and an optional abort signal.
 *
 * @param promise the work
 * @param ms milliseconds before `onTimeout()` is thrown
 * @param onTimeout builds the timeout error
 * @param signal aborts early with the signal's reason
 * @param wait what the call does and who is told about waits of a second or more
 */
export function withTimeout<T>(
  promise: Promise<T>,
  ms: number,
  onTimeout: () => Error,
  signal?: AbortSignal,
  wait?: { what: string; onWait?: WaitReporter },
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => finish(() => reject(signal?.reason));
    const timer = setTimeout(() => finish(() => reject(onTimeout())), ms);
    const ticker = new WaitTicker(wait?.what ?? "answer", wait?.onWait);
    let done = false;
    const finish = (fn: () => void) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      ticker.stop();
      signal?.removeEventListener("abort", onAbort);
      fn();
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    promise.then((v) => finish(() => resolve(v)), (e) => finish(() => reject(e)));
  });
}

/** Races a promise against an abort signal (rejects with the signal's reason). */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
