/**
 * Browser tests of the dashboard (playwright-core + Debian chromium, headless): every view
 * renders with data from a seeded store, charts are drawn, and a benchmark started from the
 * page against the LM Studio double streams output, pauses, resumes and stops. Screenshots go
 * to `test-artifacts/`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { hasChromium, launchChromium } from "./_browser.ts";
import { ensureIslandsBuilt, REPO_ROOT, tempEnv } from "../_helpers.ts";
import { startLmStudioDouble } from "../doubles/lmstudio_server.ts";
import { seedStore } from "../routes/_seed.ts";
import { createLogger } from "../../lib/log.ts";
import { createWebApp } from "../../app/mod.ts";

const ARTIFACTS = join(REPO_ROOT, "test-artifacts");

/** Whether a canvas has at least one non-transparent pixel. */
function canvasDrawn(page: Page, id: string): Promise<boolean> {
  return page.evaluate((id) => {
    const c = document.getElementById(id) as HTMLCanvasElement | null;
    if (!c || c.width === 0 || c.height === 0) return false;
    const data = c.getContext("2d")!.getImageData(0, 0, c.width, c.height).data;
    for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) return true;
    return false;
  }, id);
}

async function expectCharts(page: Page, ids: string[]): Promise<void> {
  for (const id of ids) {
    await page.waitForSelector(`#${id}[data-drawn="true"]`, { timeout: 10_000 });
    assert.ok(await canvasDrawn(page, id), `canvas ${id} is blank`);
  }
}

Deno.test({
  name: "the dashboard views render seeded data, draw charts and drive a live benchmark",
  ignore: !hasChromium,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await Deno.mkdir(ARTIFACTS, { recursive: true });
    await using env = await tempEnv();
    const double = await startLmStudioDouble({ port: 0, tokenDelayMs: 25 });
    await ensureIslandsBuilt();
    const web = await createWebApp({
      env: env.env,
      plugins: null,
      baseArgs: [
        "--backend",
        "rest",
        "--base-url",
        double.url,
        "--n-parallel",
        "1",
        "--max-tokens",
        "48",
      ],
      exit: () => {},
      logger: createLogger("test", { sink: () => {} }),
    });
    seedStore(web.store, { resultsPerVariant: 3 });
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, web.fetch);
    const base = `http://127.0.0.1:${server.addr.port}`;
    const browser = await launchChromium();
    const errors: string[] = [];
    const external: string[] = [];
    try {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      page.on("pageerror", (e) => errors.push(String(e)));
      page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
      page.on("request", (r) => !r.url().startsWith(base) && external.push(r.url()));
      const open = async (path: string) => {
        await page.goto(`${base}${path}`);
        await page.waitForSelector('html[data-hydrated="true"]', { timeout: 10_000 });
      };

      await page.goto(`${base}/`);
      assert.equal((await page.textContent("#kpi-models .kpi-value"))?.trim(), "8");
      // Home's charts are SVG drawn by the server: the ranking and the slices are in the page.
      assert.equal(await page.locator("#chart-top10 li").count(), 8);
      assert.equal(await page.locator("#chart-quants circle[stroke-dasharray]").count(), 2);
      await page.screenshot({ path: join(ARTIFACTS, "dashboard_home.png"), fullPage: true });

      await page.setViewportSize({ width: 1280, height: 900 });
      await open("/results");
      await page.waitForSelector("#results-table tbody tr");
      assert.equal(await page.locator("#results-table tbody tr").count(), 8);
      await page.fill("#filter-text", "gemma");
      assert.equal(await page.locator("#results-table tbody tr").count(), 2);
      await page.fill("#filter-text", "");
      await page.click('button[data-sort="model_key"]');
      const first = await page.textContent("#results-table tbody tr td");
      assert.equal(first, "google/gemma-3-1b@q4_k_m");
      assert.equal(await page.locator("#heatmap tbody tr").count(), 4);
      await expectCharts(page, ["chart-scatter"]);
      await page.screenshot({ path: join(ARTIFACTS, "dashboard_results.png"), fullPage: true });

      await open("/comparison?model=qwen%2Fqwen3-4b");
      await expectCharts(page, ["chart-speed", "chart-ttft", "chart-gen"]);
      await page.screenshot({ path: join(ARTIFACTS, "dashboard_comparison.png"), fullPage: true });

      await open("/benchmark");
      await page.fill("#field-runs", "2");
      await page.click("#btn-start");
      await page.waitForSelector('#bench-status[data-status="running"]');
      await page.waitForFunction(
        () => /run 1\/2/.test(document.getElementById("live-output")?.textContent ?? ""),
        undefined,
        { timeout: 15_000 },
      );
      await page.click("#btn-pause");
      await page.waitForSelector('#bench-status[data-status="paused"]');
      assert.equal((await (await fetch(`${base}/api/status`)).json()).status, "paused");
      await page.click("#btn-resume");
      await page.waitForSelector('#bench-status[data-status="running"]');
      assert.equal((await (await fetch(`${base}/api/status`)).json()).status, "running");
      await page.waitForFunction(
        () => /tok\/s/.test(document.getElementById("live-output")?.textContent ?? ""),
        undefined,
        { timeout: 15_000 },
      );
      await expectCharts(page, ["chart-live-runs"]);
      await page.screenshot({ path: join(ARTIFACTS, "dashboard_benchmark.png"), fullPage: true });
      await page.click("#btn-stop");
      await page.waitForSelector('#bench-status[data-status="idle"]', { timeout: 15_000 });
      const status = await (await fetch(`${base}/api/status`)).json();
      assert.equal(status.status, "idle");
      assert.equal(status.outcome.outcome, "stopped");
      assert.deepEqual(errors, []);
      assert.deepEqual(external, []);
    } finally {
      await browser.close();
      await web.close();
      await server.shutdown();
      await double.close();
    }
  },
});
