import assert from "node:assert/strict";
import { Hono } from "hono";
import { compress } from "hono/compress";
import { h } from "preact";
import { createHost, type Host } from "../../../lib/host/mod.ts";
import type { PluginDescriptor, PluginInstance, Settings } from "../../../lib/host/plugin.ts";
import { definePluginPages, requireSignIn } from "../../../lib/host/pages.ts";
import { listenHostNames } from "../../../lib/http/host_allow.ts";
import type { LayoutProps, Manifest } from "../../../lib/http/fw/mod.ts";
import { createLogger } from "../../../lib/log.ts";
import {
  assertIslandsBuilt,
  createWebServer,
  type WebServerOptions,
} from "../../../lib/web/server.ts";
import type { DashboardServices } from "../../../lib/dashboard/services.ts";
import { CONTENT_SECURITY_POLICY } from "../../../lib/http/headers.ts";
import { sseResponse } from "../../../lib/http/sse.ts";
import type { WebState } from "../../../lib/web/state.ts";
import * as v from "valibot";

interface ProbeInstance extends PluginInstance {
  greeting: string;
}

const probe: PluginDescriptor<Settings, ProbeInstance> = {
  id: "probe",
  name: "Probe",
  version: "1",
  settingsVersion: 1,
  settingsSchema: v.strictObject({}),
  ui: { nav: "Probe", formerPaths: ["/plugins/old-probe"], navbar: ["ProbeWidget"] },
  create: () => ({
    greeting: "hello from the instance",
    routes: [
      {
        base: "/api/plugin/probe",
        app: new Hono().get("/", (c) => c.json({ ok: true })).get("/fail", () => {
          throw new Error("boom");
        }),
      },
      { base: "/plugin/probe", app: new Hono().get("/deep/:x", (c) => c.json({ ok: true })) },
    ],
  }),
};

const define = definePluginPages<ProbeInstance>();

/** A project with the root layout, the host's sign-in and the probe's page. */
const manifest: Manifest = {
  routes: {
    "routes/_layout.tsx": {
      default: ({ state, Component }: LayoutProps<WebState>) =>
        h(
          "div",
          null,
          h("nav", null, state.nav.map((l) => h("a", { href: l.href }, l.label))),
          h("i", null, state.navbar.join(",")),
          h(Component, null),
        ),
    },
    "routes/plugins/_middleware.ts": { default: requireSignIn() },
    "plugins/probe/routes/index.tsx": {
      default: define.page(({ state }) => h("p", { id: "greeting" }, state.plugin.greeting)),
    },
    "routes/_404.tsx": { default: () => h("p", null, "no such page") },
    "routes/_500.tsx": { default: () => h("p", null, "failed") },
    "routes/api/fail.ts": {
      handler: {
        GET: () => {
          throw new Error("boom");
        },
      },
    },
  },
  islands: {},
};

/** The host names of loopback, counting how often the Host allow-list looks one up. */
class CountedNames extends Set<string> {
  lookups = 0;
  override has(name: string): boolean {
    this.lookups++;
    return super.has(name);
  }
}

async function served(options: Partial<WebServerOptions> = {}) {
  const dataDir = await Deno.makeTempDir({ prefix: "lb_web_" });
  const host: Host = createHost({
    plugins: [probe],
    dataDir,
    logger: createLogger("t", { sink: () => {} }),
  });
  const { adminKey } = await host.start();
  const allowedHosts = new CountedNames(listenHostNames("127.0.0.1"));
  const logged: string[] = [];
  const app = createWebServer({
    manifest,
    staticDir: dataDir,
    allowedHosts,
    host,
    logger: createLogger("web", { sink: (_level, line) => logged.push(line) }),
    ...options,
  });
  return {
    host,
    allowedHosts,
    logged,
    adminKey: adminKey!,
    fetch: (req: Request) => Promise.resolve(app.fetch(req)),
    request: (path: string, key: string | null = adminKey, headers: HeadersInit = {}) =>
      app.request(`http://localhost${path}`, {
        headers: { ...(key ? { "X-Api-Key": key } : {}), ...headers },
      }),
    async [Symbol.asyncDispose]() {
      await host.stop();
      await Deno.remove(dataDir, { recursive: true });
    },
  };
}

Deno.test("the host's routes, its own and its plugins', reach it without a list of paths", async () => {
  await using s = await served();
  for (const path of ["/api/settings", "/api/plugin/probe", "/plugin/probe/deep/1", "/api/job"]) {
    const res = await s.request(path, null);
    assert.equal(res.status, 401, `${path}: the host's authentication answers`);
    await res.body?.cancel();
  }
  assert.equal((await s.request("/api/plugin/probe")).status, 200);
  // Not the host's: the web app answers (no dashboard here).
  const status = await s.request("/api/status", null);
  assert.equal(status.status, 404);
  assert.deepEqual(await status.json(), { error: "Not found", code: "not_found" });
  // Only the host's own paths need its authentication; everything below a plugin's base does.
  assert.equal((await s.request("/api/settingsx", null)).status, 404);
  assert.equal((await s.request("/plugin/probe/anything/below", null)).status, 401);
});

Deno.test("the guards run once on a host path: one Host look-up, one key check", async () => {
  await using s = await served();
  const verified: string[] = [];
  const verifyKey = s.host.users.verifyKey.bind(s.host.users);
  s.host.users.verifyKey = (key) => {
    verified.push(key);
    return verifyKey(key);
  };
  for (const path of ["/api/settings", "/api/plugin/probe", "/plugin/probe/deep/1"]) {
    s.allowedHosts.lookups = 0;
    verified.length = 0;
    const res = await s.request(path);
    assert.equal(res.status, 200, path);
    await res.body?.cancel();
    assert.equal(s.allowedHosts.lookups, 1, `${path}: the Host allow-list ran once`);
    assert.equal(verified.length, 1, `${path}: the API key was checked once`);
  }
});

Deno.test("a small JSON answer of a host route leaves uncompressed, with its length", async () => {
  await using s = await served();
  const res = await s.request("/api/plugin/probe", undefined, { "Accept-Encoding": "gzip" });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("Content-Encoding"), null);
  assert.equal(res.headers.get("Content-Length"), "11");
  assert.deepEqual(await res.json(), { ok: true });
});

Deno.test("a host API error and a dashboard API error come from the one error handler", async () => {
  const services = {} as DashboardServices;
  await using s = await served({
    dashboard: { services, token: "t".repeat(32), everywhere: false },
  });
  const host = await s.request("/api/plugin/probe/fail");
  const dashboard = await s.request("/api/fail");
  for (const res of [host, dashboard]) {
    assert.equal(res.status, 500);
    assert.deepEqual(await res.json(), { error: "Internal server error", code: "internal" });
    assert.equal(res.headers.get("Content-Security-Policy"), CONTENT_SECURITY_POLICY);
    assert.equal(res.headers.get("X-Content-Type-Options"), "nosniff");
  }
  // Both failures are logged by the web app's logger.
  assert.equal(
    s.logged.filter((l) => /GET \/api(\/plugin\/probe)?\/fail: Error: boom/.test(l)).length,
    2,
  );
  // A browser gets a page elsewhere, JSON on the host's API paths too, the same 404 on both sides.
  const html = { Accept: "text/html" };
  assert.match(await (await s.request("/nope", null, html)).text(), /<p>no such page<\/p>/);
  const denied = await s.request("/plugin/probe/deep/1", null, html);
  assert.equal(denied.status, 401);
  assert.equal((await denied.json()).code, "unauthorized");
  for (const path of ["/api/plugin/probe/nope", "/api/nope"]) {
    const res = await s.request(path, undefined, html);
    assert.equal(res.status, 404, path);
    assert.deepEqual(await res.json(), { error: "Not found", code: "not_found" }, path);
  }
  assert.equal(s.logged.length, 2, "no page was tried for a failure on an API path");
});

Deno.test("every answer carries the security headers: 400, 403, 404, 413, 429 and 500 included", async () => {
  await using s = await served();
  const at = (host: string, path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set("Host", host);
    return s.fetch(new Request(`http://localhost${path}`, { ...init, headers }));
  };
  const login = (pass: string) =>
    at("localhost", "/api/login", {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: "http://localhost" },
      body: JSON.stringify({ user: "nobody", pass }),
    });
  for (let i = 0; i < 4; i++) await (await login("wrong")).body?.cancel();
  const answers: [number, Response][] = [
    [400, await at("[::1]anything", "/")],
    [403, await at("evil.example", "/api/plugin/probe")],
    [404, await at("localhost", "/nothing/here")],
    [
      413,
      await at("localhost", "/api/settings", {
        method: "POST",
        headers: { "Content-Length": String(64 * 1024 * 1024), "X-Api-Key": s.adminKey },
        body: "{}",
      }),
    ],
    [429, await login("wrong")],
    [
      500,
      await at("localhost", "/api/plugin/probe/fail", { headers: { "X-Api-Key": s.adminKey } }),
    ],
  ];
  for (const [status, res] of answers) {
    assert.equal(res.status, status);
    assert.equal(res.headers.get("Content-Security-Policy"), CONTENT_SECURITY_POLICY, `${status}`);
    assert.equal(res.headers.get("X-Frame-Options"), "DENY", `${status}`);
    assert.equal(res.headers.get("X-Content-Type-Options"), "nosniff", `${status}`);
    await res.body?.cancel();
  }
});

Deno.test("a malformed Host is a 400 before any route, never a 500", async () => {
  await using s = await served();
  for (
    const host of [
      "",
      "[::1]anything",
      "localhost:80x",
      "localhost junk",
      "localhost:",
      "[::1",
      "a/b",
      "localhost:99999",
    ]
  ) {
    for (const path of ["/", "/plugins/probe/", "/api/plugin/probe"]) {
      const headers = new Headers({ Host: host, Accept: "text/html" });
      const res = await s.fetch(new Request(`http://localhost${path}`, { headers }));
      assert.equal(res.status, 400, `${JSON.stringify(host)} ${path}`);
      await res.body?.cancel();
    }
  }
  for (
    const host of [
      "localhost",
      "localhost:8080",
      "127.0.0.1:1",
      "[::1]",
      "[::1]:8080",
      "LOCALHOST.",
    ]
  ) {
    const res = await s.fetch(
      new Request("http://localhost/api/plugin/probe", {
        headers: { Host: host, "X-Api-Key": s.adminKey },
      }),
    );
    assert.equal(res.status, 200, host);
    await res.body?.cancel();
  }
});

Deno.test("a hosted plugin's page is mounted at /plugins/<id>/ with its instance and the nav", async () => {
  await using s = await served();
  const res = await s.request("/plugins/probe/");
  assert.equal(res.status, 200);
  const html = await res.text();
  assert.match(html, /<p id="greeting">hello from the instance<\/p>/);
  assert.match(html, /<a href="\/plugins\/probe\/">Probe<\/a>/);
  assert.match(html, /<i>probe\/ProbeWidget<\/i>/, "the navbar island, named by the plugin's id");
  const anonymous = await s.request("/plugins/probe/", null);
  assert.equal(anonymous.status, 302);
  assert.equal(anonymous.headers.get("location"), "/plugins/login?next=%2Fplugins%2Fprobe%2F");
});

Deno.test("a plugin's former page URL redirects permanently, query kept", async () => {
  await using s = await served();
  const res = await s.request("/plugins/old-probe?x=1&y=2", null);
  assert.equal(res.status, 301);
  assert.equal(res.headers.get("location"), "/plugins/probe/?x=1&y=2");
});

Deno.test("without the host's pages (--no-ui) only the APIs are served", async () => {
  await using s = await served({ hostPages: false });
  assert.equal((await s.request("/plugins/probe/")).status, 404);
  assert.equal((await s.request("/plugins/old-probe")).status, 404);
  assert.equal((await s.request("/api/plugin/probe")).status, 200);
});

Deno.test("assertIslandsBuilt() names the folder and the build command when bundles are missing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await assert.rejects(
      assertIslandsBuilt({ routes: {}, islands: {} }, dir),
      {
        name: "SetupError",
        message: /bundles are missing in .*_islands \(run 'deno task build'\)/,
      },
    );
    await Deno.mkdir(`${dir}/_islands`);
    await Deno.writeTextFile(`${dir}/_islands/boot.js`, "");
    await assertIslandsBuilt({ routes: {}, islands: {} }, dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// The compression the web app uses (Hono's `compress()`, lib/web/server.ts): which encodings,
// which types, which answers are left alone, and that the event stream is neither compressed nor
// buffered.

const BIG = "localbench ".repeat(800);

function app(): Hono {
  return new Hono()
    .use("*", compress())
    .get("/text", (c) => c.text(BIG))
    .get(
      "/small",
      (c) => c.body("tiny", 200, { "Content-Type": "text/plain", "Content-Length": "4" }),
    )
    .get("/png", (c) => c.body(new Uint8Array(5000), 200, { "Content-Type": "image/png" }))
    .get("/etag", (c) => c.body(BIG, 200, { "Content-Type": "text/css", "ETag": '"v1"' }))
    .get("/vary", (c) => c.body(BIG, 200, { "Content-Type": "text/html", "Vary": "Cookie" }))
    .get(
      "/encoded",
      (c) => c.body(BIG, 200, { "Content-Type": "text/plain", "Content-Encoding": "identity" }),
    )
    .get(
      "/keep",
      (c) => c.body(BIG, 200, { "Content-Type": "text/plain", "Cache-Control": "no-transform" }),
    )
    .get("/events", (c) =>
      sseResponse(c, (send) => {
        send({ id: 1, data: { type: "status", status: "idle" } });
        return () => {};
      }))
    .get("/typed", (c) => c.body(BIG, 200, { "Content-Type": c.req.query("type")! }))
    .get("/empty", (c) => c.body(null, 204));
}

const GZIP = { "Accept-Encoding": "gzip" };

async function inflate(res: Response, format: "gzip" | "deflate"): Promise<string> {
  const stream = res.body!.pipeThrough(new DecompressionStream(format));
  return await new Response(stream).text();
}

Deno.test("compress() honours the client's encodings, q=0 and the wildcard; brotli is not offered", async () => {
  const a = app();
  for (
    const [accept, enc] of [
      ["gzip, deflate, br, zstd", "gzip"],
      ["gzip", "gzip"],
      ["br;q=0, gzip;q=0.5", "gzip"],
      ["gzip;q=0", null],
      ["*", "gzip"],
      ["*;q=0, gzip", "gzip"],
      ["deflate", "deflate"],
      ["br", null],
      ["identity", null],
      ["", null],
    ]
  ) {
    const res = await a.request("/text", { headers: { "Accept-Encoding": accept! } });
    assert.equal(res.headers.get("Content-Encoding"), enc, accept!);
    await res.body?.cancel();
  }
});

Deno.test("compress() takes text, JSON, scripts and SVG but never the event stream", async () => {
  const a = app();
  const compressed = async (type: string) => {
    const res = await a.request(`/typed?type=${encodeURIComponent(type)}`, { headers: GZIP });
    await res.body?.cancel();
    return res.headers.get("Content-Encoding") === "gzip";
  };
  for (
    const t of [
      "text/html; charset=utf-8",
      "text/css",
      "text/javascript; charset=utf-8",
      "application/json",
      "application/problem+json",
      "application/manifest+json",
      "image/svg+xml",
    ]
  ) assert.ok(await compressed(t), t);
  for (const t of ["text/event-stream", "image/png", "application/octet-stream", "audio/wav"]) {
    assert.ok(!(await compressed(t)), t);
  }
});

Deno.test("compress() answers gzip or deflate as asked, with Vary and without a length", async () => {
  const a = app();
  for (const [accept, enc] of [["br, gzip", "gzip"], ["deflate", "deflate"]] as const) {
    const res = await a.request("/text", { headers: { "Accept-Encoding": accept } });
    assert.equal(res.headers.get("Content-Encoding"), enc);
    assert.equal(res.headers.get("Vary"), "Accept-Encoding");
    assert.equal(res.headers.get("Content-Length"), null);
    assert.equal(await inflate(res, enc), BIG);
  }
});

Deno.test("compress() leaves a client that accepts no encoding with the plain body and Vary", async () => {
  const res = await app().request("/text");
  assert.equal(res.headers.get("Content-Encoding"), null);
  assert.equal(res.headers.get("Vary"), "Accept-Encoding");
  assert.equal(await res.text(), BIG);
});

Deno.test("compress() skips small, binary, encoded, no-transform and empty answers", async () => {
  const a = app();
  const headers = { "Accept-Encoding": "br, gzip" };
  const small = await a.request("/small", { headers });
  assert.equal(small.headers.get("Content-Encoding"), null);
  assert.equal(await small.text(), "tiny");
  const png = await a.request("/png", { headers });
  assert.equal(png.headers.get("Content-Encoding"), null);
  assert.equal(png.headers.get("Vary"), null, "a binary body does not vary by encoding");
  assert.equal((await png.arrayBuffer()).byteLength, 5000);
  const encoded = await a.request("/encoded", { headers });
  assert.equal(encoded.headers.get("Content-Encoding"), "identity");
  await encoded.body?.cancel();
  const keep = await a.request("/keep", { headers });
  assert.equal(keep.headers.get("Content-Encoding"), null);
  assert.equal(await keep.text(), BIG);
  const empty = await a.request("/empty", { headers });
  assert.equal(empty.status, 204);
  const head = await a.request("/text", { method: "HEAD", headers });
  assert.equal(head.headers.get("Content-Encoding"), null);
});

Deno.test("compress() weakens a strong ETag of a compressed body and keeps other Vary names", async () => {
  const a = app();
  const headers = { "Accept-Encoding": "gzip" };
  const tagged = await a.request("/etag", { headers });
  assert.equal(tagged.headers.get("ETag"), 'W/"v1"');
  await tagged.body?.cancel();
  const vary = await a.request("/vary", { headers });
  assert.equal(vary.headers.get("Vary"), "Cookie, Accept-Encoding");
  await vary.body?.cancel();
});

Deno.test("compress() never compresses nor buffers the event stream", async () => {
  const res = await app().request("/events", { headers: { "Accept-Encoding": "br, gzip" } });
  assert.equal(res.headers.get("Content-Encoding"), null);
  assert.match(res.headers.get("Content-Type")!, /^text\/event-stream/);
  const reader = res.body!.getReader();
  // The stream stays open (heartbeat); the first event must arrive without its end.
  let text = "";
  while (!text.includes('"status"')) {
    const { value, done } = await reader.read();
    assert.ok(!done, "the stream ended before its first event");
    text += new TextDecoder().decode(value);
  }
  await reader.cancel();
});
