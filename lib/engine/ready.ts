/**
 * Waits until a freshly started HTTP server answers, giving up when it exits, when a deadline
 * passes, or when the caller aborts.
 *
 * @module
 */

import { UpstreamError, type UpstreamErrorOptions, UpstreamTimeoutError } from "../error.ts";
import { sleep } from "../clock.ts";

/** Options of {@linkcode waitForHttp}. */
/** The engine's process ended before it answered. */
export class EngineExitedError extends UpstreamError {
  constructor(message: string, options: UpstreamErrorOptions = {}) {
    super(message, options, "engine_exited");
  }
}

/** Options of {@linkcode waitForHttp}. */
export interface WaitForHttpOptions {
  /** Paths tried in turn; the server is ready when one answers 200. @default ["/health", "/models"] */
  paths?: string[];
  /** Give up after this many milliseconds. @default 30000 */
  timeoutMs?: number;
  /** Pause between attempts. @default 50 */
  intervalMs?: number;
  /** Resolves when the server process has exited (stops the wait early). */
  exited?: Promise<unknown>;
  /** Aborts the wait. */
  signal?: AbortSignal;
  /** HTTP client. @default globalThis.fetch */
  fetch?: typeof fetch;
}

/**
 * Polls `baseUrl + path` until one answers 200.
 *
 * @returns the path that answered
 * @throws {UpstreamTimeoutError} `engine_start_timeout` after the deadline, {EngineExitedError} when the
 * process exits first; the signal's reason when aborted
 */
export async function waitForHttp(
  baseUrl: string,
  options: WaitForHttpOptions = {},
): Promise<string> {
  const paths = options.paths ?? ["/health", "/models"];
  const timeoutMs = options.timeoutMs ?? 30_000;
  const doFetch = options.fetch ?? fetch;
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  options.exited?.then(() => (exited = true), () => (exited = true));
  while (true) {
    options.signal?.throwIfAborted();
    for (const path of paths) {
      if (exited) break;
      try {
        const res = await doFetch(baseUrl + path, { signal: AbortSignal.timeout(2_000) });
        await res.body?.cancel();
        if (res.status === 200) return path;
      } catch {
        // Not listening yet.
      }
    }
    if (exited) {
      throw new EngineExitedError(`Cannot start server at '${baseUrl}': it exited`);
    }
    if (Date.now() >= deadline) {
      throw new UpstreamTimeoutError(
        `Cannot start server at '${baseUrl}': no answer within ${timeoutMs} ms`,
        { code: "engine_start_timeout" },
      );
    }
    await sleep(options.intervalMs ?? 50, options.signal);
  }
}
