/**
 * The browser globals of the push socket for tests of browser code: `location` and a
 * `WebSocket` double that records its instances; the test opens, messages and closes them.
 *
 * @module
 */

/** A WebSocket double. */
export class FakeSocket {
  /** Every socket created, oldest first. */
  static all: FakeSocket[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((ev: { data: string }) => void) | null = null;
  onclose: ((ev: { code: number }) => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  /** Closes it (as the page or, with a code, as the host would). */
  close(code = 1005) {
    this.closed = true;
    this.onclose?.({ code });
  }
  /** Delivers a plugin message as the host sends it. */
  push(plugin: string, data: Record<string, unknown>) {
    this.onmessage?.({ data: JSON.stringify({ plugin: { plugin, data } }) });
  }
}

/** Installs `location` (at `host`) and the WebSocket double as globals. */
export function installPushGlobals(host = "127.0.0.1:8080"): void {
  Object.defineProperty(globalThis, "location", {
    value: { protocol: "http:", host },
    configurable: true,
  });
  Object.defineProperty(globalThis, "WebSocket", { value: FakeSocket, configurable: true });
}
