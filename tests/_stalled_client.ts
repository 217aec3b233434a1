/**
 * A client that sends one request over a real loopback socket and then reads nothing (a slow
 * consumer), until the test drains what the server wrote. For HTTP streams and WebSocket upgrades.
 *
 * @module
 */

/** A connected client that does not read. */
export interface StalledClient {
  /**
   * Reads everything the server wrote until it closes the connection (`closed`), or until
   * `timeoutMs` passes (the client is then closed).
   */
  drain(timeoutMs?: number): Promise<{ bytes: Uint8Array; closed: boolean }>;
  close(): void;
}

/** Connects to `127.0.0.1:port` and sends `head` (request line and headers, CRLF-separated). */
export async function stalledClient(port: number, head: string[]): Promise<StalledClient> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  await conn.write(new TextEncoder().encode(head.join("\r\n") + "\r\n\r\n"));
  let closed = false;
  return {
    async drain(timeoutMs = 10_000) {
      const parts: Uint8Array[] = [];
      const buf = new Uint8Array(1 << 20);
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        conn.close();
        closed = true;
      }, timeoutMs);
      let ended = false;
      try {
        while (true) {
          const n = await conn.read(buf);
          if (n === null) {
            ended = true;
            break;
          }
          parts.push(buf.slice(0, n));
        }
      } catch {
        // closed by the timer, or reset by the server
        ended = !timedOut;
      } finally {
        clearTimeout(timer);
      }
      const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
      let at = 0;
      for (const p of parts) {
        bytes.set(p, at);
        at += p.length;
      }
      return { bytes, closed: ended };
    },
    close() {
      if (closed) return;
      closed = true;
      try {
        conn.close();
      } catch {
        // already closed
      }
    },
  };
}

/** The request head of a WebSocket upgrade of `path`. */
export function upgradeHead(port: number, path: string, headers: Record<string, string> = {}) {
  return [
    `GET ${path} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    "Upgrade: websocket",
    "Connection: Upgrade",
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
    "Sec-WebSocket-Version: 13",
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
}

/** The server's frames (unmasked) after the HTTP head: text payloads and the close code. */
export function serverFrames(bytes: Uint8Array): { texts: string[]; close: number | null } {
  let at = new TextDecoder().decode(bytes.subarray(0, 4096)).indexOf("\r\n\r\n") + 4;
  const texts: string[] = [];
  let close: number | null = null;
  const decoder = new TextDecoder();
  while (at + 2 <= bytes.length) {
    const op = bytes[at]! & 0x0f;
    let len = bytes[at + 1]! & 0x7f;
    let p = at + 2;
    if (len === 126) {
      len = (bytes[p]! << 8) | bytes[p + 1]!;
      p += 2;
    } else if (len === 127) {
      len = Number(new DataView(bytes.buffer, bytes.byteOffset + p, 8).getBigUint64(0));
      p += 8;
    }
    if (p + len > bytes.length) break;
    const payload = bytes.subarray(p, p + len);
    if (op === 1) texts.push(decoder.decode(payload));
    if (op === 8 && len >= 2) close = (payload[0]! << 8) | payload[1]!;
    at = p + len;
  }
  return { texts, close };
}
