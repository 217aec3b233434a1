/**
 * Serving on a socket with the limits `Deno.serve` lacks (Deno 2.9 has no header, idle or body
 * timeout and no connection cap; docs/decisions.md "Slow clients"): a small relay accepts each
 * TCP connection itself, refuses it over the cap (503), closes it when no complete request
 * header arrived within the header timeout (from the connection's start, and again after each
 * answer, so an idle keep-alive connection ends too), and passes the bytes to `Deno.serve` on a
 * loopback port. The handler sees the client's own address, and a request body that stops
 * arriving for the body timeout fails its read (400 `body_timeout`), the connection closed after
 * the answer. Upgraded connections (WebSocket) and answers being sent are never timed out.
 * `Deno.serve` listens on 127.0.0.1 only, whatever the public address.
 *
 * @module
 */
import { UsageError } from "../error.ts";
import { CONTENT_SECURITY_POLICY } from "./headers.ts";

/** The limits of {@linkcode serveWithLimits}. */
export interface ServeLimits {
  /** Longest wait for a complete request header, in ms. @default 10 000 */
  headerTimeoutMs?: number;
  /** Longest pause while a request body is read, in ms. @default 10 000 */
  bodyTimeoutMs?: number;
  /** Connections open at once; one more is answered 503 and closed. @default 256 */
  maxConnections?: number;
}

/** Options of {@linkcode serveWithLimits}. */
export interface ServeWithLimitsOptions extends ServeLimits {
  hostname: string;
  /** 0 lets the OS choose. */
  port: number;
  /**
   * The loopback ports `Deno.serve` may listen on behind the relay, tried in order (one in use:
   * the next). @default [0] (any free port). A process whose network permission names its ports
   * (the scoped host) is given a few it may use: the relay connects to the one bound.
   */
  innerPorts?: readonly number[];
}

/** A server started by {@linkcode serveWithLimits}. */
export interface LimitedServer {
  /** The address bound. */
  addr: Deno.NetAddr;
  /** Connections open now. */
  connections(): number;
  /** Stops accepting, lets the answers under way finish, then closes every connection. */
  shutdown(): Promise<void>;
}

/** The defaults of {@linkcode ServeLimits}. */
export const SERVE_LIMITS: Required<ServeLimits> = {
  headerTimeoutMs: 10_000,
  bodyTimeoutMs: 10_000,
  maxConnections: 256,
};

/** The answer to a connection over the cap, with the security headers of every answer. */
const OVER_CAP = new TextEncoder().encode(
  "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 1\r\n" +
    `Content-Security-Policy: ${CONTENT_SECURITY_POLICY}\r\nX-Frame-Options: DENY\r\n` +
    "X-Content-Type-Options: nosniff\r\nReferrer-Policy: same-origin\r\n" +
    "Content-Type: text/plain\r\nContent-Length: 25\r\n\r\nToo many open connections",
);

/** One client connection and its relay to the server. */
interface Relay {
  client: Deno.TcpConn;
  server: Deno.TcpConn | null;
  remoteAddr: Deno.NetAddr;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** Requests being answered. */
  active: number;
  upgraded: boolean;
  closeAfterAnswer: boolean;
  closed: boolean;
}

/**
 * Serves `handler` on `hostname:port` with the {@linkcode ServeLimits}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { serveWithLimits } from "./serve.ts";
 * const server = serveWithLimits({ hostname: "127.0.0.1", port: 0 }, (_req, info) =>
 *   new Response((info.remoteAddr as Deno.NetAddr).hostname));
 * const res = await fetch(`http://127.0.0.1:${server.addr.port}/`);
 * assert.equal(await res.text(), "127.0.0.1");
 * await server.shutdown();
 * ```
 */
export function serveWithLimits(
  options: ServeWithLimitsOptions,
  handler: Deno.ServeHandler<Deno.NetAddr>,
): LimitedServer {
  const limits = { ...SERVE_LIMITS, ...stripUndefined(options) };
  const relays = new Set<Relay>();
  const byServerPort = new Map<number, Relay>();

  const close = (r: Relay) => {
    if (r.closed) return;
    r.closed = true;
    clearTimeout(r.timer);
    relays.delete(r);
    if (r.server) byServerPort.delete((r.server.localAddr as Deno.NetAddr).port);
    for (const conn of [r.client, r.server]) {
      try {
        conn?.close();
      } catch { /* already closed */ }
    }
  };
  const awaitHeader = (r: Relay) => {
    clearTimeout(r.timer);
    r.timer = setTimeout(() => close(r), limits.headerTimeoutMs);
  };

  const inner = serveOnFirstFree(
    options.innerPorts?.length ? options.innerPorts : [0],
    async (req, info) => {
      const r = byServerPort.get(info.remoteAddr.port);
      if (!r) return await handler(req, info);
      r.active++;
      clearTimeout(r.timer);
      info.completed.catch(() => {}).finally(() => {
        r.active--;
        if (r.closed || r.upgraded || r.active > 0) return;
        // The answer may still be on its way through the relay: end the request side, so the
        // server closes after it, and the connection ends at the latest at the header timeout.
        if (r.closeAfterAnswer) r.server?.closeWrite().catch(() => close(r));
        awaitHeader(r);
      });
      const res = await handler(withBodyTimeout(req, r, limits.bodyTimeoutMs), {
        remoteAddr: r.remoteAddr,
        completed: info.completed,
      });
      if (res.status === 101) r.upgraded = true;
      return res;
    },
  );

  const relay = async (r: Relay) => {
    try {
      const server = await Deno.connect({ hostname: "127.0.0.1", port: inner.addr.port });
      if (r.closed) return server.close();
      // Bytes go on at once both ways (Nagle's delay would add ~40 ms to small answers).
      server.setNoDelay(true);
      r.client.setNoDelay(true);
      r.server = server;
      byServerPort.set((server.localAddr as Deno.NetAddr).port, r);
      copy(r.client, server).then(() => server.closeWrite()).catch(() => close(r));
      await copy(server, r.client);
    } catch {
      /* a side went away */
    } finally {
      close(r);
    }
  };

  const listener = Deno.listen({ hostname: options.hostname, port: options.port });
  const accepting = (async () => {
    for await (const client of listener) {
      if (relays.size >= limits.maxConnections) {
        client.write(OVER_CAP).catch(() => {}).finally(() => client.close());
        continue;
      }
      const r: Relay = {
        client,
        server: null,
        remoteAddr: client.remoteAddr as Deno.NetAddr,
        timer: undefined,
        active: 0,
        upgraded: false,
        closeAfterAnswer: false,
        closed: false,
      };
      relays.add(r);
      awaitHeader(r);
      void relay(r);
    }
  })().catch(() => {});

  return {
    addr: listener.addr as Deno.NetAddr,
    connections: () => relays.size,
    async shutdown() {
      listener.close();
      await accepting;
      for (const r of relays) if (r.active === 0) close(r);
      await inner.shutdown();
      for (const r of [...relays]) close(r);
    },
  };
}

/**
 * The request with a body whose read fails (`body_timeout`) when no bytes arrive for
 * `timeoutMs`; the connection is then closed after its answer.
 */
function withBodyTimeout(req: Request, r: Relay, timeoutMs: number): Request {
  if (req.body === null) return req;
  const reader = req.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const stalled = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          r.closeAfterAnswer = true;
          reject(
            new UsageError(
              `Cannot read the request: its body stopped arriving for ${timeoutMs / 1000} s`,
              { code: "body_timeout" },
            ),
          );
        }, timeoutMs);
      });
      try {
        const chunk = await Promise.race([reader.read(), stalled]);
        if (chunk.done) controller.close();
        else controller.enqueue(chunk.value);
      } catch (err) {
        reader.cancel().catch(() => {});
        controller.error(err);
      } finally {
        clearTimeout(timer);
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return new Request(req.url, {
    method: req.method,
    headers: req.headers,
    body,
    signal: req.signal,
    duplex: "half",
  } as RequestInit);
}

/**
 * Copies `from` to `to` until `from` ends: a read and a write at a time, so a side that does not
 * read holds the other back (no queue grows) and a connection costs two 16 KiB buffers.
 */
async function copy(from: Deno.Conn, to: Deno.Conn): Promise<void> {
  const buf = new Uint8Array(16 * 1024);
  for (let n = await from.read(buf); n !== null; n = await from.read(buf)) {
    let sent = 0;
    while (sent < n) sent += await to.write(buf.subarray(sent, n));
  }
}

function stripUndefined(o: ServeLimits): ServeLimits {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

/** `Deno.serve` on loopback at the first of `ports` not in use. */
function serveOnFirstFree(
  ports: readonly number[],
  handler: Deno.ServeHandler<Deno.NetAddr>,
): Deno.HttpServer<Deno.NetAddr> {
  for (const [i, port] of ports.entries()) {
    try {
      return Deno.serve({ hostname: "127.0.0.1", port, onListen: () => {} }, handler);
    } catch (err) {
      if (!(err instanceof Deno.errors.AddrInUse) || i === ports.length - 1) throw err;
    }
  }
  throw new Error("no port to serve on");
}
