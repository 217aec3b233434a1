import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { REPO_ROOT } from "../_helpers.ts";
import { isRouteFile, patternOf } from "../../lib/http/fw.ts";
import { manifest } from "../../routes/_manifest.ts";
import { ISLAND_FILES } from "../../routes/_islands.ts";
import { HOST_ISLANDS } from "../../routes/plugins/islands.ts";
import { post, testDashboard } from "./_dashboard.ts";
import { seedStore } from "./_seed.ts";

Deno.test("POSTs from another origin are refused with 403", async () => {
  await using d = await testDashboard();
  const evil = await d.request("/api/benchmark/pause", {
    method: "POST",
    headers: { Origin: "http://evil.example" },
  });
  assert.equal(evil.status, 403);
  assert.match((await evil.json()).error, /Cross-origin/);
  const site = await d.web.fetch(
    new Request("http://localhost/api/benchmark/pause", {
      method: "POST",
      headers: { "Sec-Fetch-Site": "cross-site" },
    }),
  );
  assert.equal(site.status, 403);
  const cli = await d.web.fetch(
    new Request("http://localhost/api/benchmark/pause", { method: "POST" }),
  );
  assert.equal(cli.status, 409);
});

// Every route, reads included (results, presets, stats, events): the report found them open.
Deno.test("bound to a non-loopback address, every route needs the token", async () => {
  await using d = await testDashboard({ hostname: "0.0.0.0", token: "s3cret" });
  assert.equal(d.web.token, "s3cret");
  const none = await post(d, "/api/system/shutdown");
  assert.equal(none.status, 401);
  const wrong = await d.request("/api/benchmark/pause", {
    method: "POST",
    headers: { "X-Localbench-Token": "nope" },
  });
  assert.equal(wrong.status, 401);
  const right = await d.request("/api/benchmark/pause", {
    method: "POST",
    headers: { Authorization: "Bearer s3cret" },
  });
  assert.equal(right.status, 409);
  for (const path of ["/api/status", "/api/results", "/api/presets", "/", "/styles.css"]) {
    const res = await d.request(path);
    assert.equal(res.status, 401, path);
    await res.body?.cancel();
  }
  const status = await d.request("/api/status", { headers: { "X-Localbench-Token": "s3cret" } });
  assert.equal(status.status, 200);
  await status.body?.cancel();
  assert.equal(d.exits, 0);
});

Deno.test("a token is generated when none is configured; on loopback only shutdown needs it", async () => {
  await using d = await testDashboard({ hostname: "0.0.0.0" });
  assert.match(d.web.token, /^[0-9a-f]{32}$/);
  assert.equal(d.web.tokenGenerated, true);
  await using local = await testDashboard({ hostname: "::1", token: "given" });
  assert.equal(local.web.token, "given");
  assert.equal(local.web.tokenEverywhere, false);
  assert.equal((await local.request("/api/status")).status, 200);
  assert.equal((await post(local, "/api/system/shutdown")).status, 401);
  assert.equal(local.exits, 0);
});

Deno.test("pages render on the server with island markers and the boot script", async () => {
  await using d = await testDashboard();
  seedStore(d.web.store);
  for (
    const [path, marker] of [
      ["/", 'data-island="Chart"'],
      ["/benchmark", 'data-island="BenchmarkPanel"'],
      ["/results", 'data-island="ResultsBrowser"'],
      ["/comparison?model=tiny", 'id="chart-speed"'],
    ] as const
  ) {
    const res = await d.request(path);
    assert.equal(res.status, 200, path);
    const html = await res.text();
    assert.ok(html.startsWith("<!DOCTYPE html>"), path);
    assert.ok(html.includes(marker), `${path} lacks ${marker}`);
    assert.ok(html.includes('src="/_islands/boot.js"'), path);
    assert.ok(!/(src|href)="(https?:)?\/\//.test(html), `${path} loads something external`);
  }
  const home = await (await d.request("/")).text();
  assert.match(home, /id="kpi-models"[^]*?>8</);
});

Deno.test("unknown paths are 404 with the one error body", async () => {
  await using d = await testDashboard();
  const res = await d.request("/no/such/page");
  assert.equal(res.status, 404);
  assert.deepEqual(await res.json(), { error: "Not found" });
});

Deno.test("island bundles are served with cache headers and revalidated with ETags", async () => {
  await using d = await testDashboard();
  const boot = await d.request("/_islands/boot.js");
  assert.equal(boot.status, 200);
  assert.equal(boot.headers.get("Cache-Control"), "no-cache");
  assert.match(boot.headers.get("Content-Type") ?? "", /javascript/);
  await boot.body?.cancel();
  const again = await d.request("/_islands/boot.js", {
    headers: { "If-None-Match": boot.headers.get("ETag")! },
  });
  assert.equal(again.status, 304);
  const chunk = [...Deno.readDirSync(join(REPO_ROOT, "static/_islands"))]
    .find((e) => e.name.startsWith("chunk-"))!;
  const res = await d.request(`/_islands/${chunk.name}`);
  assert.equal(res.headers.get("Cache-Control"), "public, max-age=31536000, immutable");
  await res.body?.cancel();
  assert.equal((await d.request("/_islands/../../deno.json")).status, 404);
  assert.equal((await d.request("/_islands/..%2F..%2Fdeno.json")).status, 404);
  const css = await d.request("/styles.css");
  assert.equal(css.status, 200);
  await css.body?.cancel();
});

Deno.test("the plugin host is mounted in the same server", async () => {
  await using d = await testDashboard({ plugins: [] });
  await d.web.host!.start();
  const res = await d.request("/api/settings");
  assert.equal(res.status, 401);
  await res.body?.cancel();
  assert.equal((await d.request("/api/status")).status, 200);
});

Deno.test("the route manifest lists every route file of the dashboard", async () => {
  const files: string[] = [];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(dir)) {
      const path = join(dir, e.name);
      if (e.isDirectory && e.name !== "plugins") await walk(path);
      else if (e.isFile) files.push("./" + relative(REPO_ROOT, path));
    }
  };
  await walk(join(REPO_ROOT, "routes"));
  const routes = files.filter(isRouteFile).sort();
  assert.deepEqual(Object.keys(manifest.routes).sort(), routes);
  assert.equal(patternOf("./routes/api/cache/[...key].ts"), "/api/cache/:key{.+}");
  assert.equal(patternOf("./routes/index.tsx"), "/");
  assert.equal(patternOf("./routes/api/presets/[name].ts"), "/api/presets/:name");
});

Deno.test("the island build lists every island of islands/, the dashboard's and the host pages'", async () => {
  const files: string[] = [];
  for await (const e of Deno.readDir(join(REPO_ROOT, "islands"))) {
    if (e.isFile && e.name.endsWith(".tsx")) files.push(`islands/${e.name}`);
  }
  assert.deepEqual(Object.values(ISLAND_FILES).sort(), files.sort());
  const used = [...Object.keys(manifest.islands ?? {}), ...Object.keys(HOST_ISLANDS)];
  assert.deepEqual(used.sort(), Object.keys(ISLAND_FILES).sort());
});
