/**
 * The model page shows a model's newest load curves: a chart of output tokens/s by concurrency
 * (and by request rate) per variant and the table of levels with the knee; the API returns them
 * with the history. Screenshots (desktop 1440×900 and mobile 390×844, light and dark) go to
 * `test-artifacts/`.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { hasChromium, launchChromium } from "./_browser.ts";
import { ensureIslandsBuilt, REPO_ROOT, tempEnv } from "../_helpers.ts";
import { seedStore } from "../routes/_seed.ts";
import { testDashboard } from "../routes/_dashboard.ts";
import { markKnee } from "../../lib/bench/load_curve.ts";
import { createLogger } from "../../lib/log.ts";
import type { ResultsStore } from "../../lib/store/mod.ts";
import { createWebApp } from "../../app/mod.ts";

const ARTIFACTS = join(REPO_ROOT, "test-artifacts");

/** Adds a load curve to the newest result of each variant of `name`. */
function seedCurves(store: ResultsStore, name: string): void {
  const results = store.latestPerIdentity().filter((r) => r.model_name === name);
  results.forEach((r, v) => {
    const level = (mode: string, level: number, tps: number, p99: number) => ({
      mode,
      level,
      requests: 16,
      ok: 16,
      failed: 0,
      duration_ms: 4000,
      output_tokens_per_sec: tps,
      requests_per_sec: tps / 64,
      goodput_rps: tps / 80,
      slo_met: 12,
      latency_ms_p50: p99 / 2,
      latency_ms_p90: p99 * 0.8,
      latency_ms_p99: p99,
      ttft_ms_p50: 20,
      ttft_ms_p90: 40,
      ttft_ms_p99: 60,
      tpot_ms_p50: 5,
      tpot_ms_p90: 7,
      tpot_ms_p99: 9,
      itl_ms_p50: 5,
      itl_ms_p99: 12,
      knee: 0,
    });
    const f = 1 + v * 0.3;
    store.addLoadLevels(
      r.id,
      markKnee([
        level("concurrency", 1, 100 * f, 300),
        level("concurrency", 2, 190 * f, 340),
        level("concurrency", 4, 260 * f, 520),
        level("concurrency", 8, 270 * f, 990),
        level("rate", 1, 60 * f, 310),
        level("rate", 4, 210 * f, 600),
      ]),
    );
  });
}

Deno.test("GET /api/comparison/{model_name} returns each variant's newest load curve", async () => {
  await using d = await testDashboard();
  seedStore(d.web.store);
  seedCurves(d.web.store, "qwen/qwen3-4b");
  const body = await (await d.request("/api/comparison/qwen/qwen3-4b")).json();
  assert.equal(body.load_curves.length, 2, "both variants");
  const curve = body.load_curves[0];
  assert.equal(curve.model_key, "qwen/qwen3-4b@q4_k_m");
  assert.deepEqual(
    curve.levels.map((l: Record<string, unknown>) => [l.mode, l.level, l.knee]),
    [
      ["concurrency", 1, 0],
      ["concurrency", 2, 0],
      ["concurrency", 4, 1],
      ["concurrency", 8, 0],
      ["rate", 1, 0],
      ["rate", 4, 0],
    ],
  );
  const none = await (await d.request("/api/comparison/tiny")).json();
  assert.deepEqual(none.load_curves, []);
});

Deno.test("the model page's load levels show the --percentiles stored with the result, from its requests", async () => {
  await using d = await testDashboard();
  seedStore(d.web.store);
  seedCurves(d.web.store, "qwen/qwen3-4b");
  const page = async () =>
    await (await d.request(`/comparison?model=${encodeURIComponent("qwen/qwen3-4b")}`)).text();
  assert.match(await page(), /<th>latency p50<\/th><th>p99<\/th><th>TTFT p99<\/th>/, "as before");

  const result = d.web.store.latestPerIdentity().find((r) =>
    r.model_key === "qwen/qwen3-4b@q4_k_m"
  )!;
  d.web.store.db.prepare("UPDATE results SET workload_json = ? WHERE id = ?")
    .run(JSON.stringify({ percentiles: [50, 99.9] }), result.id);
  // The level's requests: 300 ms … 1000 ms; p99.9 of the eight is 999.3 ms.
  [300, 400, 500, 600, 700, 800, 900, 1000].forEach((ms, i) =>
    d.web.store.addRun(result.id, {
      run_index: 3000 + i,
      load_mode: "concurrency",
      load_level: 1,
      total_ms: ms,
      ttft_ms: 20,
      tpot_ms: 5,
    })
  );
  const html = await page();
  assert.match(html, /<th>latency p50 \/ p99\.9<\/th><th>TTFT p50 \/ p99\.9<\/th>/);
  assert.match(
    html,
    /<td>c=1<\/td>.*?<td class="list">150\u00a0\/ 999 ms<\/td><td class="list">20\.0\u00a0\/ 20\.0 ms<\/td>/s,
  );
});

Deno.test({
  name: "the model page draws the load curve and lists the levels with the knee",
  ignore: !hasChromium,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await Deno.mkdir(ARTIFACTS, { recursive: true });
    await using env = await tempEnv();
    await ensureIslandsBuilt();
    const web = await createWebApp({
      env: env.env,
      plugins: null,
      exit: () => {},
      logger: createLogger("test", { sink: () => {} }),
    });
    seedStore(web.store);
    seedCurves(web.store, "qwen/qwen3-4b");
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, web.fetch);
    const base = `http://127.0.0.1:${server.addr.port}`;
    const browser = await launchChromium();
    try {
      for (const scheme of ["light", "dark"] as const) {
        for (
          const [size, viewport] of Object.entries({
            desktop: { width: 1440, height: 900 },
            mobile: { width: 390, height: 844 },
          })
        ) {
          const context = await browser.newContext({ viewport, colorScheme: scheme });
          const page = await context.newPage();
          await page.goto(`${base}/comparison?model=${encodeURIComponent("qwen/qwen3-4b")}`);
          await page.waitForSelector('html[data-hydrated="true"]', { timeout: 10_000 });
          for (const id of ["chart-load-concurrency", "chart-load-rate"]) {
            const canvas = page.locator(`#${id}`);
            await canvas.waitFor();
            const box = await canvas.boundingBox();
            assert.ok(box && box.width > 100 && box.height > 100, `${id} is drawn`);
          }
          const rows = page.locator("#load-levels tbody tr");
          assert.equal(await rows.count(), 12);
          const knee = page.locator("#load-levels tbody tr", { hasText: "knee" });
          assert.equal(await knee.count(), 2, "one knee per variant");
          assert.match((await knee.first().textContent()) ?? "", /c=4/);
          await page.screenshot({
            path: join(ARTIFACTS, `load_curve_${size}_${scheme}.png`),
            fullPage: true,
          });
          await page.goto(`${base}/comparison?model=tiny`);
          assert.equal(await page.locator("#load-levels").count(), 0, "no curve, no card");
          await context.close();
        }
      }
    } finally {
      await browser.close();
      await server.shutdown();
      await web.close();
    }
  },
});
