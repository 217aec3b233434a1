/**
 * The worker of the synchronous PostgreSQL bridge (bridge.ts): it owns one `pg` client, runs
 * each request it is posted and writes the answer into the request's shared buffer (protocol.ts),
 * waking the blocked calling thread. 64-bit integers and numerics come back as JavaScript numbers,
 * as SQLite gives them.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import pg from "pg";
import { type Answer, HEADER_BYTES, MAX_BYTES, READY, type Request } from "./protocol.ts";

const INT8 = 20;
const NUMERIC = 1700;

interface Client {
  connect(): Promise<void>;
  query(q: { text: string; values?: unknown[]; types?: unknown }): Promise<
    { rows: Record<string, unknown>[]; rowCount: number | null }
  >;
  end(): Promise<void>;
  on(event: "error", fn: (err: Error) => void): void;
}

const types = {
  getTypeParser(oid: number, format?: string) {
    if (oid === INT8 || oid === NUMERIC) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format as "text");
  },
};

let client: Client | null = null;
/** An error the connection raised between requests (the server went away). */
let broken: Error | null = null;

function failure(err: unknown): Answer {
  const e = err as { message?: string; code?: string; detail?: string };
  return {
    ok: false,
    message: String(e?.message ?? err),
    // A SQLSTATE (five characters); a system error's code (ECONNREFUSED) is in its message.
    ...(typeof e?.code === "string" && /^[0-9A-Z]{5}$/.test(e.code) ? { code: e.code } : {}),
    ...(typeof e?.detail === "string" ? { detail: e.detail } : {}),
  };
}

function reply(buffer: SharedArrayBuffer, answer: Answer): void {
  let bytes = new TextEncoder().encode(JSON.stringify(answer));
  const needed = HEADER_BYTES + bytes.length;
  if (needed > buffer.byteLength) {
    if (buffer.growable && needed <= (buffer.maxByteLength ?? 0)) {
      buffer.grow(needed);
    } else {
      bytes = new TextEncoder().encode(JSON.stringify(failure(
        new Error(`the answer (${bytes.length} bytes) exceeds the bridge's ${MAX_BYTES} bytes`),
      )));
    }
  }
  new Uint8Array(buffer, HEADER_BYTES, bytes.length).set(bytes);
  const words = new Int32Array(buffer, 0, 2);
  Atomics.store(words, 1, bytes.length);
  Atomics.store(words, 0, READY);
  Atomics.notify(words, 0);
}

async function handle(req: Request): Promise<Answer | "closed"> {
  if (req.kind === "connect") {
    const c = new pg.Client({
      connectionString: req.connectionString,
      ssl: req.ssl,
      connectionTimeoutMillis: req.connectTimeoutMs,
      statement_timeout: req.statementTimeoutMs || undefined,
      types,
    }) as unknown as Client;
    c.on("error", (err) => broken = err);
    await c.connect();
    client = c;
    return { ok: true, rows: [], rowCount: 0 };
  }
  if (req.kind === "close") {
    const c = client;
    client = null;
    await c?.end().catch(() => {});
    return "closed";
  }
  if (broken) throw broken;
  if (!client) throw new Error("not connected");
  const res = await client.query({ text: req.sql, values: req.params });
  // A script answers one result per statement: the last one's rows, the changes summed.
  const all = Array.isArray(res) ? res as typeof res[] : [res];
  const last = all.at(-1);
  const rowCount = all.reduce((n, r) => n + (r.rowCount ?? 0), 0);
  return { ok: true, rows: last?.rows ?? [], rowCount };
}

self.onmessage = async (e: MessageEvent<Request>) => {
  const req = e.data;
  let answer: Answer | "closed";
  try {
    answer = await handle(req);
  } catch (err) {
    answer = failure(err);
  }
  if (answer === "closed") {
    reply(req.buffer, { ok: true, rows: [], rowCount: 0 });
    self.close();
    return;
  }
  reply(req.buffer, answer);
};
