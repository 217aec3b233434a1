import assert from "node:assert/strict";
import { type LimitedServer, serveWithLimits } from "../../../lib/http/serve.ts";

const encoder = new TextEncoder();

/** Opens a raw connection to `server` and writes `text`. */
async function raw(server: LimitedServer, text = ""): Promise<Deno.TcpConn> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
  if (text !== "") await conn.write(encoder.encode(text));
  return conn;
}

/** Reads until the server closes the connection (bounded: `limitMs`); the text and the time. */
async function untilClosed(conn: Deno.TcpConn, limitMs = 5000) {
  const start = performance.now();
  const chunks: string[] = [];
  const buf = new Uint8Array(4096);
  const timer = setTimeout(() => conn.close(), limitMs);
  let closedByServer = true;
  try {
    while (true) {
      const n = await conn.read(buf);
      if (n === null) break;
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

function echoServer(limits = {}) {
  return serveWithLimits(
    { hostname: "127.0.0.1", port: 0, headerTimeoutMs: 300, bodyTimeoutMs: 300, ...limits },
    async (req, info) => {
      try {
        const body = await req.text();
        return Response.json({ address: info.remoteAddr.hostname, body });
      } catch (err) {
        return Response.json({ code: (err as { code?: string }).code }, { status: 400 });
      }
    },
  );
}

Deno.test("serveWithLimits() answers requests with the client's own address, keep-alive included", async () => {
  const server = echoServer();
  try {
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`http://127.0.0.1:${server.addr.port}/`, {
        method: "POST",
        body: `hello ${i}`,
      });
      assert.deepEqual(await res.json(), { address: "127.0.0.1", body: `hello ${i}` });
    }
  } finally {
    await server.shutdown();
  }
});

Deno.test("a client that sends half a header line and waits is closed at the header timeout", async () => {
  const server = echoServer();
  try {
    const slow = await raw(server, "GET / HTTP/1.1\r\nHost: loc");
    // A byte every 50 ms keeps the line moving but never finishes the header.
    const dribble = await raw(server, "G");
    const drip = setInterval(() => dribble.write(encoder.encode("x")).catch(() => {}), 50);
    const silent = await raw(server);
    // Meanwhile a whole request is answered.
    const res = await fetch(`http://127.0.0.1:${server.addr.port}/`);
    assert.equal(res.status, 200);
    await res.body?.cancel();
    try {
      for (const conn of [slow, silent, dribble]) {
        const { text, ms, closedByServer } = await untilClosed(conn);
        assert.ok(closedByServer, "the server closed it");
        assert.equal(text, "", "no answer to a request that never arrived");
        assert.ok(ms < 3000, `closed after ${Math.round(ms)} ms`);
      }
    } finally {
      clearInterval(drip);
    }
  } finally {
    await server.shutdown();
  }
});

Deno.test("an idle keep-alive connection is closed at the header timeout after its answer", async () => {
  const server = echoServer();
  try {
    const conn = await raw(server, "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n");
    const { text, closedByServer } = await untilClosed(conn);
    assert.match(text, /^HTTP\/1\.1 200 /);
    assert.ok(closedByServer);
  } finally {
    await server.shutdown();
  }
});

Deno.test("a request body that stops arriving fails its read with body_timeout and the connection closes", async () => {
  const server = echoServer();
  try {
    const conn = await raw(
      server,
      "POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\nabc",
    );
    const { text, closedByServer } = await untilClosed(conn);
    assert.match(text, /^HTTP\/1\.1 400 /);
    assert.match(text, /"code":"body_timeout"/);
    assert.ok(closedByServer);
  } finally {
    await server.shutdown();
  }
});

Deno.test("the connection over the cap is answered 503 and closed; a freed place is taken again", async () => {
  const server = echoServer({ maxConnections: 3, headerTimeoutMs: 60_000 });
  const held: Deno.TcpConn[] = [];
  try {
    for (let i = 0; i < 3; i++) held.push(await raw(server, "GET / HTTP/1.1\r\n"));
    for (let i = 0; i < 50 && server.connections() < 3; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.equal(server.connections(), 3);
    const over = await untilClosed(await raw(server));
    assert.ok(over.closedByServer);
    assert.match(over.text, /^HTTP\/1\.1 503 /);
    assert.match(over.text, /Content-Security-Policy: /);
    held.pop()!.close();
    for (let i = 0; i < 100 && server.connections() >= 3; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    const res = await fetch(`http://127.0.0.1:${server.addr.port}/`);
    assert.equal(res.status, 200);
    await res.body?.cancel();
  } finally {
    for (const conn of held) conn.close();
    await server.shutdown();
  }
});

Deno.test("a slow answer and an upgraded WebSocket outlive the header timeout", async () => {
  const server = serveWithLimits(
    { hostname: "127.0.0.1", port: 0, headerTimeoutMs: 200 },
    (req) => {
      if (req.headers.get("upgrade") === "websocket") {
        const { socket, response } = Deno.upgradeWebSocket(req);
        socket.onmessage = (e) => socket.send(`echo ${e.data}`);
        return response;
      }
      let n = 0;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          await new Promise((r) => setTimeout(r, 150));
          if (n++ === 4) return controller.close();
          controller.enqueue(encoder.encode(`${n} `));
        },
      });
      return new Response(body);
    },
  );
  try {
    const res = await fetch(`http://127.0.0.1:${server.addr.port}/`);
    assert.equal(await res.text(), "1 2 3 4 ", "600 ms of answer, timeout 200 ms");
    const ws = new WebSocket(`ws://127.0.0.1:${server.addr.port}/`);
    await new Promise((resolve, reject) => {
      ws.onopen = resolve;
      ws.onerror = reject;
    });
    await new Promise((r) => setTimeout(r, 500));
    const reply = new Promise<string>((resolve) => ws.onmessage = (e) => resolve(e.data));
    ws.send("hi");
    assert.equal(await reply, "echo hi");
    const closed = new Promise((r) => ws.onclose = r);
    ws.close();
    await closed;
  } finally {
    await server.shutdown();
  }
});

Deno.test("the server behind the relay takes the first of its given ports that is free", async () => {
  const busy = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const taken = (busy.addr as Deno.NetAddr).port;
  const spare = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const free = (spare.addr as Deno.NetAddr).port;
  spare.close();
  const server = serveWithLimits(
    { hostname: "127.0.0.1", port: 0, innerPorts: [taken, free] },
    () => new Response("ok"),
  );
  try {
    const res = await fetch(`http://127.0.0.1:${server.addr.port}/`);
    assert.equal(await res.text(), "ok");
    // The inner server is the one on the free port: nothing else listens there.
    const direct = await fetch(`http://127.0.0.1:${free}/`);
    assert.equal(await direct.text(), "ok");
  } finally {
    await server.shutdown();
    busy.close();
  }
});
