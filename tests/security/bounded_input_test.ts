/**
 * 13.4 and 13.8: bodies are capped before and while they are read (413), JSON nested too deeply
 * is a 400 (the log export's 500 of the report), and text a client puts into the host log can
 * neither start a new line nor grow the log without bound.
 */
import assert from "node:assert/strict";
import { createHost } from "../../lib/host/mod.ts";
import { MAX_REQUEST_BODY } from "../../lib/http/body.ts";
import { plugin as branchplus } from "../../plugins/branchplus/mod.ts";
import { createLogMonitorPlugin } from "../../plugins/logmonitor/mod.ts";
import { createTempEtaPlugin } from "../../plugins/temp_eta/mod.ts";
import { testDashboard } from "../routes/_dashboard.ts";
import { hostWebApp, serveHostApp } from "../_web.ts";

const HOST_POSTS = [
  "/api/login",
  "/api/settings",
  "/api/printer/tool",
  "/api/printer/bed",
  "/api/job",
  "/api/plugin/branchplus",
  "/api/plugin/temp_eta",
  "/plugin/logmonitor/export",
  "/plugin/logmonitor/stream/start",
  "/plugin/logmonitor/stream/multi/start",
  "/plugin/logmonitor/stream/multi/stop",
];
const DASHBOARD_POSTS = ["/api/benchmark/start", "/api/presets"];

/** A body of `size` bytes of JSON-looking text, produced lazily, with no declared length. */
function streamed(size: number): ReadableStream<Uint8Array> {
  const chunk = new TextEncoder().encode(`{"a":"${"x".repeat(64 * 1024 - 8)}`);
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= size) return controller.close();
      controller.enqueue(chunk);
      sent += chunk.byteLength;
    },
  });
}

function deep(levels: number): string {
  return `{"results": ${"[".repeat(levels)}${"]".repeat(levels)}, "format": "txt"}`;
}

/** The origin of the host's own pages (the test app answers as http://localhost): login needs it. */
const SAME_ORIGIN = { Origin: "http://localhost" };

async function hostWithPlugins() {
  const dataDir = await Deno.makeTempDir();
  const host = createHost({
    plugins: [
      createLogMonitorPlugin({ pollMs: 1000 }),
      createTempEtaPlugin(),
      branchplus,
    ],
    dataDir,
  });
  const { adminKey } = await host.start();
  const web = hostWebApp(host);
  return {
    host,
    dataDir,
    post: (path: string, body: BodyInit, headers: Record<string, string> = {}) =>
      Promise.resolve(web.request(path, {
        method: "POST",
        body,
        headers: {
          "X-Api-Key": adminKey!,
          "Content-Type": "application/json",
          ...SAME_ORIGIN,
          ...headers,
        },
        duplex: "half",
      } as RequestInit)),
    async close() {
      await host.stop();
      await Deno.remove(dataDir, { recursive: true });
    },
  };
}

Deno.test("every state-changing route refuses an oversized body with 413, declared or streamed", async () => {
  const h = await hostWithPlugins();
  try {
    for (const path of HOST_POSTS) {
      const declared = await h.post(path, "{}", {
        "Content-Length": String(MAX_REQUEST_BODY + 1),
      });
      assert.equal(declared.status, 413, `${path} declared`);
      assert.match((await declared.json()).error, /larger than/);
      const big = await h.post(path, streamed(MAX_REQUEST_BODY + 128 * 1024));
      assert.equal(big.status, 413, `${path} streamed over the servers' cap`);
      await big.body?.cancel();
    }
    for (const path of HOST_POSTS.filter((p) => !p.endsWith("/export"))) {
      const res = await h.post(path, streamed(2 * 1024 * 1024));
      assert.equal(res.status, 413, `${path} streamed over the route's 1 MiB`);
      await res.body?.cancel();
    }
    const login = await h.post("/api/login", streamed(64 * 1024));
    assert.equal(login.status, 413, "a login body is a few bytes");
    await login.body?.cancel();
  } finally {
    await h.close();
  }
  await using d = await testDashboard();
  for (const path of DASHBOARD_POSTS) {
    const res = await d.request(
      path,
      { method: "POST", body: streamed(2 * 1024 * 1024), duplex: "half" } as RequestInit,
    );
    assert.equal(res.status, 413, path);
    await res.body?.cancel();
  }
});

Deno.test("JSON nested too deeply is a 400 on every JSON route, the log export included", async () => {
  const h = await hostWithPlugins();
  try {
    for (const path of HOST_POSTS) {
      const res = await h.post(path, deep(1000));
      assert.equal(res.status, 400, path);
      const body = await res.json();
      // The branch controller answers its failures as {ok: false, reason, detail} (the seed's).
      assert.match(body.error ?? body.detail, /nested deeper than/, path);
    }
    const report = await h.post("/plugin/logmonitor/export", deep(1_000_000));
    assert.equal(report.status, 400, "the report's deeply nested export");
    await report.body?.cancel();
    const ok = await h.post("/plugin/logmonitor/export", deep(3));
    assert.equal(ok.status, 400, "shallow but wrong results: the export's own 400");
    await ok.body?.cancel();
  } finally {
    await h.close();
  }
  await using d = await testDashboard();
  for (const path of DASHBOARD_POSTS) {
    const res = await d.request(path, { method: "POST", body: deep(100_000) });
    assert.match((await res.clone().json()).error, /nested deeper than/, path);
    assert.equal(res.status, 400, path);
    await res.body?.cancel();
  }
});

Deno.test("a declared 1 GB login is refused before its body is sent", async () => {
  const dataDir = await Deno.makeTempDir();
  const served = await serveHostApp(createHost({ plugins: [], dataDir }), { pages: false });
  try {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: served.port });
    await conn.write(
      new TextEncoder().encode(
        `POST /api/login HTTP/1.1\r\nHost: 127.0.0.1:${served.port}\r\n` +
          `Content-Type: application/json\r\nContent-Length: 1073741824\r\n\r\n{"user":"`,
      ),
    );
    const buf = new Uint8Array(4096);
    const n = await conn.read(buf);
    conn.close();
    assert.match(new TextDecoder().decode(buf.subarray(0, n ?? 0)), /^HTTP\/1\.1 413 /);
  } finally {
    await served.shutdown();
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("a failed login cannot plant a log line or grow the log by more than one bounded line", async () => {
  const h = await hostWithPlugins();
  try {
    const log = `${h.host.paths.logDir}/host.log`;
    const before = (await Deno.readTextFile(log)).split("\n").length;
    const planted =
      "x\n2024-01-01 00:00:00,000 - localbench.host - ERROR - planted\r\u2028\u001b[2J";
    for (const user of [planted, "y".repeat(7000)]) {
      const res = await h.post("/api/login", JSON.stringify({ user, pass: "nope" }));
      assert.equal(res.status, 401);
      await res.body?.cancel();
    }
    const lines = (await Deno.readTextFile(log)).split("\n");
    const added = lines.slice(before - 1).filter((l) => l !== "");
    assert.equal(added.filter((l) => l.includes("login_failed")).length, 2);
    assert.ok(!lines.some((l) => l.startsWith("2024-01-01")), "no planted entry");
    assert.ok(!lines.some((l) => l.includes("\u001b") || l.includes("\r")), "no control chars");
    assert.ok(added.every((l) => l.length < 400), "user names are cut short");
  } finally {
    await h.close();
  }
});
