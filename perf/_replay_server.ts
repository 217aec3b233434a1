/**
 * A replay server for the client-overhead benchmark: answers every `POST /v1/chat/completions`
 * the way llama-server's router does (same status line and header fields, `Connection: close`,
 * chunked, one chunk per token, the same JSON shapes, `usage` and `timings` at the end) with no
 * model behind it, so what a client adds to a request is all that varies. Tokens are written
 * `--gap-ms` apart (the tiny models' pace is about 1 ms); `timings.prompt_ms` is the time from
 * the request's last byte to the first token's write and `predicted_ms` from the first token's
 * write to the last one's, measured here, as the real server reports its own.
 *
 * Run as a program (a process of its own, so it never shares an event loop with the client
 * measured): `deno run --allow-net=127.0.0.1 perf/_replay_server.ts [--tokens 256] [--gap-ms 1]`
 * prints its port, then serves until killed.
 *
 * @module
 */
import { parseOptions } from "../lib/args.ts";

const encoder = new TextEncoder();
const HEAD = "HTTP/1.1 200 OK\r\nServer: llama.cpp\r\nAccess-Control-Allow-Origin: \r\n" +
  "Connection: close\r\nX-Accel-Buffering: no\r\nContent-Type: text/event-stream\r\n" +
  "Transfer-Encoding: chunked\r\nKeep-Alive: timeout=5, max=100\r\n\r\n";

const chunk = (events: unknown[]) => {
  const text = events.map((e) => `data: ${typeof e === "string" ? e : JSON.stringify(e)}\n\n`)
    .join("");
  return encoder.encode(`${encoder.encode(text).length.toString(16)}\r\n${text}\r\n`);
};

/** Reads a request head and its `Content-Length` body; false when the peer went away. */
async function readRequest(conn: Deno.Conn): Promise<boolean> {
  const buf = new Uint8Array(64 * 1024);
  let got = new Uint8Array(0);
  for (;;) {
    const n = await conn.read(buf);
    if (n === null) return false;
    const next = new Uint8Array(got.length + n);
    next.set(got);
    next.set(buf.subarray(0, n), got.length);
    got = next;
    const text = new TextDecoder().decode(got);
    const end = text.indexOf("\r\n\r\n");
    if (end < 0) continue;
    const length = Number(/content-length:\s*(\d+)/i.exec(text.slice(0, end))?.[1] ?? 0);
    if (got.length - (end + 4) >= length) return true;
  }
}

async function answer(conn: Deno.Conn, tokens: number, gapMs: number): Promise<void> {
  if (!(await readRequest(conn))) return;
  const t0 = performance.now();
  const id = `chatcmpl-${crypto.randomUUID().slice(0, 8)}`;
  const base = { created: Math.floor(Date.now() / 1000), id, model: "replay", object: "x" };
  const choice = (delta: unknown, finish: string | null = null) => ({
    choices: [{ finish_reason: finish, index: 0, delta }],
    ...base,
  });
  await conn.write(encoder.encode(HEAD));
  let first = 0;
  for (let i = 0; i < tokens; i++) {
    if (i > 0 && gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
    const events = i === 0
      ? [choice({ role: "assistant", content: null }), choice({ content: " the" })]
      : [choice({ content: " the" })];
    await conn.write(chunk(events));
    if (i === 0) first = performance.now();
  }
  const last = performance.now();
  const timings = {
    prompt_n: 30,
    prompt_ms: first - t0,
    predicted_n: tokens,
    predicted_ms: last - first,
    predicted_per_second: last > first ? tokens / (last - first) * 1000 : null,
  };
  const usage = { completion_tokens: tokens, prompt_tokens: 30, total_tokens: tokens + 30 };
  await conn.write(chunk([choice({}, "length"), { choices: [], ...base, usage, timings }]));
  await conn.write(chunk(["[DONE]"]));
  await conn.write(encoder.encode("0\r\n\r\n"));
}

/** A running replay server. */
export interface ReplayServer {
  url: string;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Starts the replay server as a process of its own. */
export async function startReplayServer(
  options: { tokens: number; gapMs: number },
): Promise<ReplayServer> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-net=127.0.0.1",
      new URL(import.meta.url).pathname,
      "--tokens",
      String(options.tokens),
      "--gap-ms",
      String(options.gapMs),
    ],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  while (!out.includes("\n")) {
    const { done, value } = await reader.read();
    if (done) throw new Error("the replay server ended before saying its port");
    out += value;
  }
  reader.releaseLock();
  return {
    url: `http://127.0.0.1:${Number(out.trim())}`,
    async [Symbol.asyncDispose]() {
      child.kill();
      await child.status;
      await child.stdout.cancel().catch(() => {});
    },
  };
}

/** Errors of a client that went away mid-answer. */
const gone = (err: unknown) =>
  err instanceof Deno.errors.ConnectionReset || err instanceof Deno.errors.BrokenPipe ||
  err instanceof Deno.errors.BadResource;

if (import.meta.main) {
  const { values } = parseOptions({
    args: Deno.args,
    options: {
      tokens: { type: "string", default: "256" },
      "gap-ms": { type: "string", default: "1" },
    },
  });
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  Deno.stdout.writeSync(encoder.encode(`${listener.addr.port}\n`));
  for await (const conn of listener) {
    answer(conn, Number(values.tokens), Number(values["gap-ms"]))
      .catch((err) => {
        if (!gone(err)) throw err;
      })
      .finally(() => {
        try {
          conn.close();
        } catch (err) {
          if (!gone(err)) throw err;
        }
      });
  }
}
