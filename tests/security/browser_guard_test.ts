/**
 * 13.2: a browser cannot be turned against a local server. A rebinding name in `Host` is refused
 * before any route runs (dashboard and plugin host, in process and on a real socket); `Origin`
 * is compared in full; shutdown needs the token even on loopback; an empty token is refused;
 * bound beyond loopback every dashboard route needs the token; every page carries the CSP;
 * `next` redirects stay on the server.
 */
import assert from "node:assert/strict";
import { createHost } from "../../lib/host/mod.ts";
import { createLogger } from "../../lib/log.ts";
import { CONTENT_SECURITY_POLICY } from "../../lib/http/headers.ts";
import { createWebApp } from "../../app/mod.ts";
import { ensureIslandsBuilt, tempEnv, waitFor } from "../_helpers.ts";
import { testDashboard } from "../routes/_dashboard.ts";
import { seedStore } from "../routes/_seed.ts";
import { serveHostApp } from "../_web.ts";

const quiet = createLogger("test", { sink: () => {} });

function at(host: string, path: string, init: RequestInit = {}): Request {
  const headers = new Headers(init.headers);
  headers.set("Host", host);
  return new Request(`http://${host}${path}`, { ...init, headers });
}

/** Sends raw HTTP/1.1 on a socket (so `Host` is exactly what a rebinding page sends). */
async function rawGet(port: number, host: string, path: string): Promise<number> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    await conn.write(
      new TextEncoder().encode(
        `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
      ),
    );
    const text = new TextDecoder().decode(await new Response(conn.readable).arrayBuffer());
    return Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
  } catch (err) {
    conn.close();
    throw err;
  }
}

Deno.test("the dashboard refuses a rebinding Host before any route, reads and shutdown included", async () => {
  await using d = await testDashboard();
  seedStore(d.web.store);
  const token = { "X-Localbench-Token": d.web.token };
  for (
    const host of [
      "evil.example",
      "evil.example:8080",
      "localhost.evil.example",
      "127.0.0.1.nip.io",
    ]
  ) {
    for (
      const [method, path, headers] of [
        ["GET", "/api/results", {}],
        ["GET", "/api/status", {}],
        ["GET", "/", {}],
        ["POST", "/api/benchmark/start", { Origin: `http://${host}` }],
        ["POST", "/api/system/shutdown", { Origin: `http://${host}`, ...token }],
      ] as const
    ) {
      const res = await d.web.fetch(at(host, path, { method, headers }));
      assert.equal(res.status, 403, `${method} ${host}${path}`);
      assert.match((await res.json()).error, /not a name of this server/);
    }
  }
  for (
    const host of ["localhost", "localhost:8080", "LOCALHOST.", "127.0.0.1:8080", "[::1]:8080"]
  ) {
    const res = await d.web.fetch(at(host, "/api/status"));
    assert.equal(res.status, 200, host);
    await res.body?.cancel();
  }
  assert.equal(d.exits, 0);
});

Deno.test("the allowed host names are configurable by option and environment", async () => {
  await ensureIslandsBuilt();
  await using env = await tempEnv();
  env.vars.LOCALBENCH_ALLOWED_HOSTS = "bench.lan, other.lan";
  const web = await createWebApp({
    env: env.env,
    plugins: null,
    allowedHosts: ["dash.example"],
    logger: quiet,
  });
  try {
    for (const host of ["bench.lan", "other.lan:1", "dash.example", "localhost"]) {
      const res = await web.fetch(at(host, "/api/status"));
      assert.equal(res.status, 200, host);
      await res.body?.cancel();
    }
    const evil = await web.fetch(at("evil.lan", "/api/status"));
    assert.equal(evil.status, 403);
    await evil.body?.cancel();
  } finally {
    await web.close();
  }
});

Deno.test("the plugin host refuses a rebinding Host on a real socket, login and push included", async () => {
  const dataDir = await Deno.makeTempDir();
  const host = createHost({ plugins: [], dataDir, logger: quiet });
  const served = await serveHostApp(host);
  try {
    for (const path of ["/api/login", "/push", "/plugins/login", "/api/settings"]) {
      assert.equal(await rawGet(served.port, `evil.example:${served.port}`, path), 403, path);
    }
    assert.equal(await rawGet(served.port, `127.0.0.1:${served.port}`, "/api/settings"), 401);
  } finally {
    await served.shutdown();
    await Deno.remove(dataDir, { recursive: true });
  }
});

/** Sends a browser's page request on a socket: the status line and whether the CSP came along. */
async function rawPage(port: number, host: string, path: string) {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  await conn.write(
    new TextEncoder().encode(
      `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nAccept: text/html\r\nConnection: close\r\n\r\n`,
    ),
  );
  const text = new TextDecoder().decode(await new Response(conn.readable).arrayBuffer());
  return {
    status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0),
    csp: /^content-security-policy: /im.test(text),
  };
}

Deno.test("a malformed Host is a 400 with the security headers on real sockets, pages included", async () => {
  await ensureIslandsBuilt();
  const dataDir = await Deno.makeTempDir();
  const served = await serveHostApp(createHost({ plugins: [], dataDir, logger: quiet }));
  await using env = await tempEnv();
  const web = await createWebApp({ env: env.env, plugins: null, logger: quiet });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, web.fetch);
  try {
    const hosts = ["", "[::1]anything", "localhost:80x", "localhost junk", "[::1]:8080x"];
    for (
      const [port, paths] of [[served.port, ["/plugins/login", "/nothing", "/api/settings"]], [
        server.addr.port,
        ["/", "/results", "/nothing", "/api/status"],
      ]] as const
    ) {
      for (const host of hosts) {
        for (const path of paths) {
          const res = await rawPage(port, host, path);
          assert.deepEqual(res, { status: 400, csp: true }, `${JSON.stringify(host)} ${path}`);
        }
      }
    }
  } finally {
    await served.shutdown();
    await Deno.remove(dataDir, { recursive: true });
    await web.close();
    await server.shutdown();
  }
});

Deno.test("the dashboard refuses a rebinding Host on a real socket", async () => {
  await ensureIslandsBuilt();
  await using env = await tempEnv();
  const web = await createWebApp({
    env: env.env,
    plugins: null,
    logger: quiet,
  });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, web.fetch);
  try {
    const port = server.addr.port;
    assert.equal(await rawGet(port, `rebind.example:${port}`, "/api/results"), 403);
    assert.equal(await rawGet(port, `localhost:${port}`, "/api/results"), 200);
  } finally {
    await web.close();
    await server.shutdown();
  }
});

Deno.test("Origin is compared in full: scheme, host and port", async () => {
  await using d = await testDashboard();
  const cases: [string, number][] = [
    ["http://localhost:8080", 409],
    ["https://localhost:8080", 403],
    ["http://localhost:9999", 403],
    ["http://localhost", 403],
    ["http://127.0.0.1:8080", 403],
    ["null", 403],
    ["not a url", 403],
  ];
  for (const [origin, status] of cases) {
    const res = await d.web.fetch(
      at("localhost:8080", "/api/benchmark/pause", { method: "POST", headers: { Origin: origin } }),
    );
    assert.equal(res.status, status, origin);
    await res.body?.cancel();
  }
});

Deno.test("shutdown needs the token even on loopback; a right token shuts down", async () => {
  await using d = await testDashboard();
  const post = (headers: Record<string, string>) =>
    d.request("/api/system/shutdown", { method: "POST", headers });
  const attempts: Record<string, string>[] = [
    {},
    { "X-Localbench-Token": "" },
    { "X-Localbench-Token": "wrong" },
  ];
  for (const headers of attempts) {
    const res = await post(headers);
    assert.equal(res.status, 401, JSON.stringify(headers));
    await res.body?.cancel();
  }
  assert.equal(d.exits, 0);
  const ok = await post({ Authorization: `Bearer ${d.web.token}` });
  assert.equal(ok.status, 200);
  await waitFor(() => d.exits > 0, "the exit after the shutdown answer");
  assert.equal(d.exits, 1);
});

Deno.test("an empty token is refused at start, from the option or the environment", async () => {
  await using env = await tempEnv();
  await assert.rejects(
    createWebApp({ env: env.env, hostname: "0.0.0.0", token: "", plugins: null }),
    { name: "UsageError", message: /empty token \(--token\)/ },
  );
  env.vars.LOCALBENCH_WEB_TOKEN = " ";
  await assert.rejects(
    createWebApp({ env: env.env, hostname: "0.0.0.0", plugins: null }),
    { name: "UsageError", message: /empty token \(LOCALBENCH_WEB_TOKEN\)/ },
  );
});

Deno.test("beyond loopback every dashboard route needs the token; the ?token= link sets a cookie", async () => {
  await using d = await testDashboard({ hostname: "0.0.0.0", token: "s3cret" });
  seedStore(d.web.store);
  const paths = [
    "/",
    "/benchmark",
    "/results",
    "/comparison",
    "/api/status",
    "/api/results",
    "/api/dashboard/stats",
    "/api/comparison",
    "/api/presets",
    "/api/benchmark/events",
    "/no/such/page",
    "/no-such-file.css",
  ];
  for (const path of paths) {
    const res = await d.request(path);
    assert.equal(res.status, 401, path);
    await res.body?.cancel();
  }
  // The stylesheet and the island bundles are the same public bytes for everyone (the plugin
  // host's login page, which has no token, uses them too): served without it.
  for (const path of ["/styles.css", "/favicon.svg", "/_islands/boot.js"]) {
    const res = await d.request(path);
    assert.equal(res.status, 200, path);
    await res.body?.cancel();
  }
  const link = await d.request("/results?token=s3cret&x=1");
  assert.equal(link.status, 303);
  assert.equal(link.headers.get("location"), "/results?x=1");
  const cookie = link.headers.get("set-cookie")!;
  assert.match(cookie, /localbench_token=s3cret/);
  assert.match(cookie, /HttpOnly/);
  assert.match(cookie, /SameSite=Strict/);
  const wrongLink = await d.request("/results?token=nope");
  assert.equal(wrongLink.status, 401);
  await wrongLink.body?.cancel();
  for (const path of paths.filter((p) => !p.endsWith("/events") && !p.includes("no"))) {
    const res = await d.request(path, { headers: { Cookie: cookie.split(";")[0]! } });
    assert.equal(res.status, 200, path);
    await res.body?.cancel();
  }
  // The cookie is sent by the browser on its own: a state-changing request with it must prove
  // it comes from the dashboard's page (Origin, or Sec-Fetch-Site: same-origin).
  const withCookie = (headers: Record<string, string>) =>
    d.web.fetch(
      new Request("http://localhost/api/presets", {
        method: "POST",
        headers: { Cookie: cookie.split(";")[0]!, "Content-Type": "application/json", ...headers },
        body: JSON.stringify({ name: "p", args: [] }),
      }),
    );
  for (
    const [headers, code] of [
      [{}, "origin_required"],
      [{ "Sec-Fetch-Site": "same-site" }, "cross_origin"],
      [{ Origin: "http://evil.example" }, "cross_origin"],
    ] as const
  ) {
    const res = await withCookie(headers);
    assert.equal(res.status, 403, JSON.stringify(headers));
    assert.equal((await res.json()).code, code);
  }
  const own = await withCookie({ "Sec-Fetch-Site": "same-origin" });
  assert.notEqual(own.status, 403, "the dashboard's own page passes");
  await own.body?.cancel();
});

Deno.test("every page and file of both servers carries the CSP with frame-ancestors 'none'", async () => {
  await using d = await testDashboard({ plugins: [] });
  seedStore(d.web.store);
  await d.web.host!.start();
  for (
    const path of [
      "/",
      "/benchmark",
      "/results",
      "/comparison?model=tiny",
      "/styles.css",
      "/api/status",
      "/nope",
      "/plugins/login",
      "/plugins/logs",
      "/plugins/",
      "/_islands/boot.js",
      "/api/settings",
    ]
  ) {
    const res = await d.request(path, { headers: { Accept: "text/html" } });
    assert.equal(res.headers.get("Content-Security-Policy"), CONTENT_SECURITY_POLICY, path);
    assert.equal(res.headers.get("X-Frame-Options"), "DENY", path);
    assert.equal(res.headers.get("X-Content-Type-Options"), "nosniff", path);
    assert.equal(res.headers.get("Referrer-Policy"), "same-origin", path);
    assert.equal(res.headers.get("Strict-Transport-Security"), null, `${path}: plain HTTP`);
    const html = await res.text();
    if (!(res.headers.get("Content-Type") ?? "").includes("html")) continue;
    assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, `${path}: inline script`);
    assert.doesNotMatch(html, /<style|\sstyle=/, `${path}: inline style`);
  }
});

Deno.test("the login page's next parameter only ever names a path of this server", async () => {
  await using d = await testDashboard({ plugins: [] });
  await d.web.host!.start();
  const cases: [string, string][] = [
    ["/plugins/power", "/plugins/power"],
    ["/plugins/power?x=1", "/plugins/power?x=1"],
    ["/%09/evil.example/x", "/plugins/"],
    ["/%0A/evil.example", "/plugins/"],
    ["//evil.example", "/plugins/"],
    ["/%5Cevil.example", "/plugins/"],
    ["https://evil.example", "/plugins/"],
    ["javascript:alert(1)", "/plugins/"],
    ["/%2F%2Fevil.example", "/plugins/"],
  ];
  for (const [next, expected] of cases) {
    const res = await d.request(`/plugins/login?next=${next}`);
    const html = await res.text();
    assert.ok(
      html.includes(`data-next="${expected}"`),
      `${next}: ${/data-next="[^"]*"/.exec(html)}`,
    );
  }
});
