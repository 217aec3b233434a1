/**
 * The web app of `deno task webapp` (app/web_app.ts) as a whole: the guards (same origin, the
 * token), server-rendered pages and their islands, the error pages, the bundles, the plugin host
 * mounted in the same server, and compression.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT } from "../_helpers.ts";
import { post, testDashboard } from "../routes/_dashboard.ts";
import { seedStore } from "../routes/_seed.ts";
import { isPostgres, ResultsStore } from "../../lib/store/mod.ts";
import { testPostgres } from "../_postgres.ts";
import { staticGraph } from "../../tools/import_graph.ts";

Deno.test("the web app loads no PostgreSQL client or job queue at start: pg and pg-boss come with a fleet", async () => {
  // A SQLite dashboard answers every request without them; they cost ~9 MiB of its memory.
  const graph = await staticGraph(REPO_ROOT, "app/web_app.ts");
  for (const pkg of ["pg", "pg-boss"]) {
    assert.ok(!graph.npm.includes(pkg), `${pkg} is loaded by app/web_app.ts at start`);
  }
  assert.ok(graph.files.includes("lib/fleet/queue.ts"), "the fleet's routes are still loaded");
});

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
  for (const path of ["/api/status", "/api/results", "/api/presets", "/", "/nope"]) {
    const res = await d.request(path);
    assert.equal(res.status, 401, path);
    await res.body?.cancel();
  }
  const css = await d.request("/styles.css");
  assert.equal(css.status, 200, "the stylesheet is public");
  await css.body?.cancel();
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
  // Home draws its charts as SVG here and ships no script at all.
  const home = await (await d.request("/")).text();
  assert.match(home, /id="kpi-models"[^]*?>8</);
  assert.match(home, /<ol class="barlist" id="chart-top10"/);
  assert.match(home, /<div class="donut" id="chart-quants"><svg/);
  assert.ok(!home.includes("<script"), "Home has no script");
});

Deno.test("unknown paths are 404: the one error body for clients, the _404 page for browsers", async () => {
  await using d = await testDashboard();
  const res = await d.request("/no/such/page");
  assert.equal(res.status, 404);
  assert.deepEqual(await res.json(), { error: "Not found", code: "not_found" });
  const page = await d.request("/no/such/page", { headers: { Accept: "text/html" } });
  assert.equal(page.status, 404);
  assert.match(page.headers.get("Content-Type") ?? "", /text\/html/);
  const html = await page.text();
  assert.match(html, /Page not found/);
  assert.match(html, /<nav[^>]*>.*href="\/benchmark"/, "the page is in the layout");
  const api = await d.request("/api/nope", { headers: { Accept: "text/html" } });
  assert.deepEqual(await api.json(), { error: "Not found", code: "not_found" });
});

Deno.test("a failing page is the _500 page for a browser and JSON for a client", async () => {
  await using d = await testDashboard();
  d.web.store.close();
  const json = await d.request("/results");
  assert.equal(json.status, 500);
  assert.deepEqual(await json.json(), { error: "Internal server error", code: "internal" });
  const page = await d.request("/results", { headers: { Accept: "text/html" } });
  assert.equal(page.status, 500);
  const html = await page.text();
  assert.match(html, /Error 500/);
  assert.match(html, /Internal server error/);
  assert.doesNotMatch(html, /database|sqlite|at .*\.ts/i, "no internals");
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

// The dashboard's answers leave compressed (pages, JSON, bundles, the stylesheet) with the
// security headers kept, while the event stream is sent as it is, event by event.

const BROWSER = { "Accept-Encoding": "gzip, deflate, br" };

async function inflate(res: Response): Promise<string> {
  const enc = res.headers.get("Content-Encoding");
  const format = enc === "gzip" || enc === "deflate" ? enc : null;
  if (!format) return await res.text();
  return await new Response(
    res.body!.pipeThrough(new DecompressionStream(format)),
  ).text();
}

Deno.test("the dashboard compresses pages, JSON, bundles and the stylesheet", async () => {
  await using d = await testDashboard();
  seedStore(d.web.store);
  for (const path of ["/", "/results", "/api/results", "/api/dashboard/stats", "/styles.css"]) {
    const res = await d.request(path, { headers: BROWSER });
    assert.equal(res.status, 200, path);
    assert.equal(res.headers.get("Content-Encoding"), "gzip", path);
    assert.match(res.headers.get("Vary") ?? "", /Accept-Encoding/, path);
    assert.ok(res.headers.get("Content-Security-Policy"), `${path} keeps its CSP`);
    const text = await inflate(res);
    assert.ok(text.length > 1024, path);
  }
  const home = await inflate(await d.request("/", { headers: { "Accept-Encoding": "gzip" } }));
  assert.match(home, /<h1>Overview<\/h1>/);
  const boot = await d.request("/_islands/boot.js", { headers: { "Accept-Encoding": "gzip" } });
  assert.equal(boot.headers.get("Cache-Control"), "no-cache");
  assert.match(boot.headers.get("ETag") ?? "", /^W\//);
  // A revalidation with the weak tag still answers 304.
  const again = await d.request("/_islands/boot.js", {
    headers: { "Accept-Encoding": "gzip", "If-None-Match": boot.headers.get("ETag")! },
  });
  await boot.body?.cancel();
  assert.equal(again.status, 304);
});

Deno.test("the dashboard sends the event stream uncompressed and unbuffered", async () => {
  await using d = await testDashboard();
  const res = await d.request("/api/benchmark/events", { headers: BROWSER });
  assert.equal(res.headers.get("Content-Encoding"), null);
  const reader = res.body!.getReader();
  let text = "";
  while (!text.includes('"type":"status"')) {
    const { value, done } = await reader.read();
    assert.ok(!done);
    text += new TextDecoder().decode(value);
  }
  await reader.cancel();
});

Deno.test({
  name: "with a PostgreSQL store the dashboard reads and pages come from PostgreSQL",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const pg = await testPostgres();
    const url = await pg.createDatabase();
    await using d = await testDashboard({ store: url });
    assert.equal(isPostgres(d.web.store.db), true);
    const seeded = seedStore(d.web.store);
    assert.ok(seeded > 0);
    const stats = await (await d.request("/api/dashboard/stats")).json();
    assert.equal(
      stats.total_runs,
      Number(
        d.web.store.db.prepare("SELECT COUNT(*) AS n FROM runs").get()!.n,
      ),
    );
    assert.ok(stats.cached_models > 0);
    const results = await d.request("/api/results");
    assert.equal(results.status, 200);
    const body = await results.json();
    assert.ok(Array.isArray(body.rows) && body.rows.length > 0);
    const page = await d.request("/");
    assert.equal(page.status, 200);
    await page.body?.cancel();
    // Clearing keeps a backup: a SQLite store of what PostgreSQL held.
    const cleared = await (await post(d, "/api/cache/clear")).json();
    assert.equal(cleared.deleted_count, 16);
    const backup = ResultsStore.open(cleared.backup_file);
    try {
      assert.equal(backup.allResults().length, 16);
    } finally {
      backup.close();
    }
    assert.equal((await (await d.request("/api/results")).json()).count, 0);
  },
});
