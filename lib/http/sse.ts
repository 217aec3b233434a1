/**
 * Server-sent events from an async source: each item becomes `id:` + `data: <json>`; a comment
 * line is sent as a heartbeat so proxies and browsers keep the stream open.
 *
 * @module
 */

/** One event of a stream. */
export interface SseItem {
  id?: number | string;
  data: unknown;
}

/** Options of {@linkcode sseResponse}. */
export interface SseOptions {
  /** Heartbeat interval. @default 15_000 */
  heartbeatMs?: number;
  /** Reconnection delay sent to the browser. @default 2000 */
  retryMs?: number;
}

/** Formats one event. */
export function formatSse(item: SseItem): string {
  const id = item.id === undefined ? "" : `id: ${item.id}\n`;
  return `${id}data: ${JSON.stringify(item.data)}\n\n`;
}

/**
 * A `text/event-stream` response fed by `subscribe`, which receives a `send` function and
 * returns the function that unsubscribes (called when the client goes away).
 */
export function sseResponse(
  subscribe: (send: (item: SseItem) => void) => () => void,
  options: SseOptions = {},
): Response {
  const enc = new TextEncoder();
  let cleanup = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let open = true;
      const write = (text: string) => {
        if (!open) return;
        try {
          controller.enqueue(enc.encode(text));
        } catch {
          open = false;
        }
      };
      write(`retry: ${options.retryMs ?? 2000}\n\n`);
      const unsubscribe = subscribe((item) => write(formatSse(item)));
      const beat = setInterval(() => write(": ping\n\n"), options.heartbeatMs ?? 15_000);
      cleanup = () => {
        open = false;
        clearInterval(beat);
        unsubscribe();
      };
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-cache",
      "X-Accel-Buffering": "no",
    },
  });
}
