/**
 * A scripted HTTP/1.1 server on 127.0.0.1 for the transport tests: it reads each request (head
 * and `Content-Length` body) and lets the test write whatever bytes it wants, at its own pace, well
 * formed or not (llama-server's exact bytes, a cut stream, an answer that is not HTTP); it counts
 * connections and ends everything when disposed.
 *
 * @module
 */

const encoder = new TextEncoder();

/** What a handler does with the connection after answering. */
export type After = "keep" | "close";

/** Answers one request on `conn`. */
export type RawHandler = (conn: Deno.Conn, request: string, index: number) => Promise<After>;

/** A running scripted server. */
export interface RawServer {
  url: string;
  port: number;
  /** Connections accepted so far. */
  readonly accepted: number;
  /** Connections the client ended (the server read their end). */
  readonly ended: number;
  /** The requests read so far (head and body as text). */
  requests: string[];
  [Symbol.asyncDispose](): Promise<void>;
}

/** Writes text (or bytes) to a connection. */
export async function send(conn: Deno.Conn, data: string | Uint8Array): Promise<void> {
  const bytes = typeof data === "string" ? encoder.encode(data) : data;
  for (let at = 0; at < bytes.length;) at += await conn.write(bytes.subarray(at));
}

/** One chunk of a chunked body. */
export const chunk = (text: string) => `${encoder.encode(text).length.toString(16)}\r\n${text}\r\n`;

/** Reads one request; null at the end of the connection. */
async function readRequest(conn: Deno.Conn, carry: { bytes: Uint8Array }): Promise<string | null> {
  const buf = new Uint8Array(16 * 1024);
  for (;;) {
    const text = new TextDecoder().decode(carry.bytes);
    const end = text.indexOf("\r\n\r\n");
    if (end >= 0) {
      const length = Number(/content-length:\s*(\d+)/i.exec(text.slice(0, end))?.[1] ?? 0);
      const size = end + 4 + length;
      if (carry.bytes.length >= size) {
        const request = new TextDecoder().decode(carry.bytes.subarray(0, size));
        carry.bytes = carry.bytes.slice(size);
        return request;
      }
    }
    let n: number | null;
    try {
      n = await conn.read(buf);
    } catch (err) {
      if (gone(err)) return null;
      throw err;
    }
    if (n === null) return null;
    const next = new Uint8Array(carry.bytes.length + n);
    next.set(carry.bytes);
    next.set(buf.subarray(0, n), carry.bytes.length);
    carry.bytes = next;
  }
}

/** Errors of a connection the other side (or the dispose) ended. */
const gone = (err: unknown) =>
  err instanceof Deno.errors.BrokenPipe || err instanceof Deno.errors.ConnectionReset ||
  err instanceof Deno.errors.BadResource || err instanceof Deno.errors.Interrupted;

function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch (err) {
    if (!(err instanceof Deno.errors.BadResource)) throw err;
  }
}

/** Starts the server; `handle` answers every request. */
export function rawServer(handle: RawHandler): RawServer {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns = new Set<Deno.Conn>();
  const tasks: Promise<void>[] = [];
  const state = { accepted: 0, ended: 0, requests: [] as string[] };
  const serveConn = async (conn: Deno.Conn) => {
    const carry = { bytes: new Uint8Array(0) };
    try {
      for (;;) {
        const request = await readRequest(conn, carry);
        if (request === null) {
          state.ended++;
          return;
        }
        state.requests.push(request);
        if ((await handle(conn, request, state.requests.length - 1)) === "close") return;
      }
    } catch (err) {
      if (!gone(err)) throw err;
    } finally {
      conns.delete(conn);
      closeQuietly(conn);
    }
  };
  const accepting = (async () => {
    for await (const conn of listener) {
      state.accepted++;
      conns.add(conn);
      tasks.push(serveConn(conn));
    }
  })();
  const port = listener.addr.port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    get accepted() {
      return state.accepted;
    },
    get ended() {
      return state.ended;
    },
    requests: state.requests,
    async [Symbol.asyncDispose]() {
      listener.close();
      await accepting.catch((err) => {
        if (!gone(err)) throw err;
      });
      for (const conn of conns) closeQuietly(conn);
      await Promise.all(tasks);
    },
  };
}
