/**
 * Small helpers around Deno's `WebSocket` client shared by the hub client and the one-shot probe.
 *
 * @module
 */

/** Longest real-time wait for a socket to finish closing. */
export const CLOSE_WAIT_MS = 2000;

/**
 * Closes a socket (if it is not closed yet) and resolves once its `close` event has fired, or
 * after {@linkcode CLOSE_WAIT_MS} at the latest.
 */
export function waitForClose(ws: WebSocket): Promise<void> {
  if (ws.readyState === WebSocket.CLOSED) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, CLOSE_WAIT_MS);
    ws.addEventListener("close", done, { once: true });
    function done() {
      clearTimeout(timer);
      ws.removeEventListener("close", done);
      resolve();
    }
    if (ws.readyState !== WebSocket.CLOSING) ws.close();
  });
}
