/**
 * Timeouts for model-server calls: a resettable watchdog for streams and a race helper for
 * promise-based APIs (the SDK can hang forever on a bad frame).
 *
 * @module
 */

/**
 * An abort signal that fires after `ms` without activity or when the outer signal aborts.
 * Call {@linkcode Watchdog.touch} on activity and {@linkcode Watchdog.clear} when done.
 */
export class Watchdog {
  readonly #ctl = new AbortController();
  /** The idle time allowed, in milliseconds. */
  readonly ms: number;
  readonly #outer: AbortSignal | undefined;
  readonly #onOuter = () => this.#ctl.abort(this.#outer?.reason);
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** True once the timer (not the outer signal) aborted. */
  timedOut = false;

  constructor(ms: number, outer?: AbortSignal) {
    this.ms = ms;
    this.#outer = outer;
    if (outer?.aborted) this.#ctl.abort(outer.reason);
    else outer?.addEventListener("abort", this.#onOuter, { once: true });
    this.touch();
  }

  /** The combined signal. */
  get signal(): AbortSignal {
    return this.#ctl.signal;
  }

  /** Restarts the countdown. */
  touch(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    if (this.#ctl.signal.aborted) return;
    this.#timer = setTimeout(() => {
      this.timedOut = true;
      this.#ctl.abort(new DOMException("Timed out", "TimeoutError"));
    }, this.ms);
  }

  /** Stops the countdown and detaches from the outer signal. */
  clear(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
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
 */
export function withTimeout<T>(
  promise: Promise<T>,
  ms: number,
  onTimeout: () => Error,
  signal?: AbortSignal,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => finish(() => reject(signal?.reason));
    const timer = setTimeout(() => finish(() => reject(onTimeout())), ms);
    let done = false;
    const finish = (fn: () => void) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
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
