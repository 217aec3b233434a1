/**
 * Cooperative pause and stop of a running job: pause lets the in-flight request finish and holds
 * the next one; stop aborts the in-flight request.
 *
 * @module
 */

/** The job's view of its controller. */
export interface JobControl {
  /** Aborted when the job must stop. */
  readonly signal: AbortSignal;
  /** Resolves at once when running; waits while paused; rejects when stopped. */
  checkpoint(): Promise<void>;
}

/** A controller: pause, resume and stop a job. */
export class JobController implements JobControl {
  #abort = new AbortController();
  #paused: { promise: Promise<void>; resolve: () => void } | null = null;

  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  get paused(): boolean {
    return this.#paused !== null;
  }

  get stopped(): boolean {
    return this.#abort.signal.aborted;
  }

  pause(): void {
    if (this.#paused || this.stopped) return;
    const { promise, resolve } = Promise.withResolvers<void>();
    this.#paused = { promise, resolve };
  }

  resume(): void {
    this.#paused?.resolve();
    this.#paused = null;
  }

  stop(reason = "stopped by the user"): void {
    this.#abort.abort(new DOMException(reason, "AbortError"));
    this.resume();
  }

  async checkpoint(): Promise<void> {
    this.signal.throwIfAborted();
    while (this.#paused) {
      await this.#paused.promise;
      this.signal.throwIfAborted();
    }
  }
}

/** True for the error an aborted signal throws. */
export function isAbort(err: unknown): boolean {
  return err instanceof DOMException && err.name === "AbortError" ||
    err instanceof Error && err.name === "AbortError";
}
