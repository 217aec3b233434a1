/**
 * HTTP helpers of the doubles: JSON and error responses, bearer-token checks, and a server-sent
 * events body fed by an async generator that honours delays, cancellation and dropped connections.
 *
 * @module
 */

import { DoubleError } from "./_lmstudio_state.ts";

/**
 * Thrown inside an event generator to cut the connection (no final event). Under `Deno.serve` the
 * runtime logs an errored body once; the stack is kept to one line so that log stays short.
 */
export class DropConnection extends Error {
  constructor() {
    super("connection dropped by the double (injected fault dropStreamAfterTokens)");
    this.name = "DropConnection";
    this.stack = `${this.name}: ${this.message}`;
  }
}

/** A JSON response. */
export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json" },
  });
}

/** The official error body for any thrown value. */
export function errorResponse(err: unknown): Response {
  if (err instanceof DoubleError) return json(err.body(), err.status);
  const message = err instanceof Error ? err.message : String(err);
  return json({ error: { type: "internal_error", message } }, 500);
}

/** A 401 unless the request carries `Authorization: Bearer <token>` (no check without a token). */
export function checkToken(req: Request, token: string | null): Response | null {
  if (token === null) return null;
  if (req.headers.get("authorization") === `Bearer ${token}`) return null;
  return json({
    error: {
      type: "invalid_request",
      message: "Invalid or missing API token",
      code: "invalid_api_token",
    },
  }, 401);
}

/** Resolves after `ms`, or early (without error) when the signal aborts. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(id);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const id = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

/** Every chunk of `gen` joined into one, sent when `gen` ends (as a buffering proxy would). */
async function* oneBurst(gen: AsyncGenerator<string>): AsyncGenerator<string> {
  let all = "";
  for await (const chunk of gen) all += chunk;
  yield all;
}

/**
 * A `text/event-stream` response whose chunks come from `produce(signal)`. The signal aborts when
 * the client cancels or the double shuts down; throwing {@linkcode DropConnection} errors the body.
 * With `burst`, the whole stream is held back and written at once when it ends, with its timing
 * (fault `burstStream`).
 */
export function sseResponse(
  produce: (signal: AbortSignal) => AsyncGenerator<string>,
  shutdown: AbortSignal,
  burst = false,
): Response {
  const ctl = new AbortController();
  const onShutdown = () => ctl.abort();
  shutdown.addEventListener("abort", onShutdown, { once: true });
  const it = burst ? oneBurst(produce(ctl.signal)) : produce(ctl.signal);
  const finish = () => shutdown.removeEventListener("abort", onShutdown);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await it.next();
        if (done || ctl.signal.aborted) {
          finish();
          controller.close();
        } else controller.enqueue(encoder.encode(value));
      } catch (err) {
        finish();
        controller.error(err);
      }
    },
    async cancel() {
      ctl.abort();
      finish();
      await it.return(undefined);
    },
  });
  return new Response(body, {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
  });
}

/** One `event:` + `data:` frame. */
export function namedEvent(type: string, data: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

/** One `data:`-only frame. */
export function dataEvent(data: unknown): string {
  return `data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
}

/**
 * A `fetch` that calls a handler without a socket and, like a real fetch, rejects with the
 * signal's reason when the request is aborted (even if the handler never answers).
 */
export function inProcessFetch(handler: (req: Request) => Promise<Response>): typeof fetch {
  return ((input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    const signal = init?.signal ?? null;
    if (signal === null) return handler(req);
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise<Response>((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      handler(req).then(resolve, reject).finally(() =>
        signal.removeEventListener("abort", onAbort)
      );
    });
  }) as typeof fetch;
}
