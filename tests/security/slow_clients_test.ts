/**
 * 28.3: slow clients cannot hold a server. Both servers (the plugin host as `deno task host`
 * serves it, the dashboard as `deno task webapp` does) close a client that sends half a header
 * and waits, answer a body that stops arriving, and refuse the connection over the cap with a
 * 503 — on real loopback sockets.
 */
import assert from "node:assert/strict";
import { createHost, serveHost } from "../../lib/host/mod.ts";
import { createLogger } from "../../lib/log.ts";
import { tempEnv } from "../_helpers.ts";
import { hostWebApp } from "../_web.ts";
import { startWebappProcess } from "../_webapp_process.ts";

const encoder = new TextEncoder();

/** Writes `text` on a new connection and reads until the server closes it (at most `limitMs`). */
async function exchange(port: number, text: string, limitMs: number) {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const start = performance.now();
  if (text !== "") await conn.write(encoder.encode(text));
  const timer = setTimeout(() => conn.close(), limitMs);
  const chunks: string[] = [];
  let closedByServer = true;
  try {
    const buf = new Uint8Array(8192);
    for (let n = await conn.read(buf); n !== null; n = await conn.read(buf)) {
      chunks.push(new TextDecoder().decode(buf.subarray(0, n)));
    }
  } catch {
    closedByServer = false;
  } finally {
    clearTimeout(timer);
  }
  if (closedByServer) conn.close();
  return { text: chunks.join(""), ms: performance.now() - start, closedByServer };
}

Deno.test("the plugin host closes a half-sent header at its timeout and answers a stalled body", async () => {
  const dataDir = await Deno.makeTempDir();
  const host = createHost({ plugins: [], dataDir, logger: createLogger("t", { sink: () => {} }) });
  const web = hostWebApp(host, { pages: false });
  const served = await serveHost(host, {
    port: 0,
    fetch: (req, info) => web.fetch(req, info),
    limits: { headerTimeoutMs: 500, bodyTimeoutMs: 500, maxConnections: 8 },
  });
  const held: Deno.TcpConn[] = [];
  try {
    const port = served.port;
    const half = await exchange(port, "GET /api/settings HTTP/1.1\r\nHost: 127.0.0.1", 5000);
    assert.ok(half.closedByServer, "closed by the server");
    assert.ok(half.ms < 4000, `closed after ${Math.round(half.ms)} ms`);
    const stalled = await exchange(
      port,
      `POST /api/login HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: http://127.0.0.1:${port}\r\n` +
        `Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"user":`,
      5000,
    );
    assert.match(stalled.text, /^HTTP\/1\.1 400 /);
    assert.match(stalled.text, /body_timeout/);
    assert.match(stalled.text, /content-security-policy: /i);
    assert.ok(stalled.closedByServer);
    for (let i = 0; i < 8; i++) {
      held.push(await Deno.connect({ hostname: "127.0.0.1", port }));
    }
    const over = await exchange(port, `GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`, 3000);
    assert.match(over.text, /^HTTP\/1\.1 503 /, "the ninth connection is refused");
  } finally {
    for (const conn of held) conn.close();
    await served.shutdown();
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test({
  name: "deno task webapp closes a half-sent header within 10 s and refuses the 257th connection",
  sanitizeResources: false,
  async fn() {
    await using t = await tempEnv();
    await using app = await startWebappProcess(["-A"], ["--port", "0", "--no-plugins"], t.vars);
    const held: Deno.TcpConn[] = [];
    try {
      const port = Number(new URL(app.url).port);
      const half = await exchange(port, "GET / HTTP/1.1\r\nHost: 127.0.0.1", 15_000);
      assert.ok(half.closedByServer, `closed by the server after ${Math.round(half.ms)} ms`);
      assert.ok(half.ms < 12_000, `closed after ${Math.round(half.ms)} ms`);
      for (let i = 0; i < 256; i++) held.push(await Deno.connect({ hostname: "127.0.0.1", port }));
      const over = await exchange(port, `GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`, 5000);
      assert.match(over.text, /^HTTP\/1\.1 503 /, "the 257th connection is refused");
    } finally {
      for (const conn of held) conn.close();
    }
  },
});
