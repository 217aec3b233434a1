/**
 * Comparison and Results as a person uses them (issue 19.2, 19.6): one line per variant and
 * backend, links from Home and Results open the right entry, the picker follows the URL and
 * opens a choice at once, back restores it; Results says what to do when a filter matches
 * nothing and when there is no VRAM figure, explains Δ and shows tok/s on a phone; a parallel
 * round shows on both pages as the sequential figures do.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { hasChromium, launchChromium } from "./_browser.ts";
import { applyLook, LOOKS, shotPath } from "./_axe.ts";
import { checkEveryLook, openPage, startDashboard, watchedPage } from "./_dashboard.ts";
import { insertRow } from "../../lib/store/rows.ts";
import type { ResultsStore } from "../../lib/store/mod.ts";

/** The labels of the lines of a drawn line chart. */
function lines(page: Page, id: string): Promise<string[]> {
  return page.evaluate(async (id) => {
    const { Chart } = await import("/_islands/chart_line.js");
    const chart = Chart.getChart(id);
    // deno-lint-ignore no-explicit-any
    return chart ? chart.data.datasets.map((d: any) => String(d.label)) : [];
  }, id);
}

/** Adds results of `key` measured through another backend (the SDK). */
function addSdkResults(store: ResultsStore, key: string, speeds: number[]): void {
  const model = store.db.prepare("SELECT id FROM models WHERE model_key = ?").get(key) as {
    id: number;
  };
  speeds.forEach((speed, i) => {
    const when = new Date(Date.UTC(2026, 0, 10 + i, 12)).toISOString();
    insertRow(store.db, "results", {
      model_id: model.id,
      params_hash: "sdk",
      backend: "sdk",
      status: "ok",
      started_at: when,
      finished_at: when,
      params_json: "{}",
      num_runs: 1,
      runs_ok: 1,
      runs_failed: 0,
      context_length: 2048,
      tokens_per_sec_mean: speed,
      ttft_ms_mean: 90,
      total_ms_mean: 1500,
    });
  });
}

/** Gives the newest result of `key` a parallel round: 2 streams at `tokensPerSec` together. */
function addParallelRound(store: ResultsStore, key: string, tokensPerSec: number): void {
  store.db.prepare(
    `UPDATE results SET n_parallel = 2, parallel_tokens_per_sec = ? WHERE id = (
       SELECT MAX(r.id) FROM results r JOIN models m ON m.id = r.model_id WHERE m.model_key = ?)`,
  ).run(tokensPerSec, key);
}

Deno.test({
  name: "Comparison draws a line per variant and backend and follows the URL and the picker",
  ignore: !hasChromium,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const d = await startDashboard();
    addSdkResults(d.web.store, "qwen/qwen3-4b@q4_k_m", [30, 31]);
    addParallelRound(d.web.store, "qwen/qwen3-4b@q8_0", 51.3);
    const browser = await launchChromium();
    try {
      const { page, watch } = await watchedPage(browser, d.base);
      await applyLook(page, LOOKS[0]!);

      // From Home: the top-10 entry opens that variant.
      await openPage(page, d.base, "/");
      await page.click('#chart-top10 a[title="qwen/qwen3-4b@q8_0"]');
      await page.waitForSelector('html[data-hydrated="true"]');
      assert.equal(new URL(page.url()).searchParams.get("model"), "qwen/qwen3-4b@q8_0");
      assert.equal(await page.inputValue("#model"), "qwen/qwen3-4b@q8_0");
      await page.waitForSelector('#chart-speed[data-drawn="true"]');
      assert.deepEqual(await lines(page, "chart-speed"), ["qwen/qwen3-4b q8_0"]);
      assert.equal(await page.locator("#series-table tbody tr").count(), 1);
      // Its parallel round is there as the sequential figures are.
      assert.match(await page.textContent("#series-table thead") ?? "", /Parallel tok\/s/);
      assert.match(await page.textContent("#series-table tbody") ?? "", /51\.3 ×2/);

      // The picker opens another entry at once: the whole model, one line per variant+backend.
      await Promise.all([
        page.waitForURL(/model=qwen%2Fqwen3-4b$/),
        page.selectOption("#model", "qwen/qwen3-4b"),
      ]);
      await page.waitForSelector('#chart-speed[data-drawn="true"]');
      assert.deepEqual((await lines(page, "chart-speed")).sort(), [
        "qwen/qwen3-4b q4_k_m · rest",
        "qwen/qwen3-4b q4_k_m · sdk",
        "qwen/qwen3-4b q8_0 · rest",
      ]);
      assert.equal(await page.locator("#series-table tbody tr").count(), 3);
      assert.match(await page.textContent("#cmp-trend") ?? "", /mixed|up|down|stable/);
      await checkEveryLook(page, "comparison_lines", LOOKS[0]!);

      // Back: the previous entry, and the picker says so.
      await page.goBack();
      await page.waitForSelector('html[data-hydrated="true"]');
      assert.equal(await page.inputValue("#model"), "qwen/qwen3-4b@q8_0");

      // From Results: a row opens its variant.
      await openPage(page, d.base, "/results");
      await page.click('#results-table a[href*="gemma-3-1b%40q4_k_m"]');
      await page.waitForSelector('html[data-hydrated="true"]');
      assert.equal(await page.inputValue("#model"), "google/gemma-3-1b@q4_k_m");

      // An unknown name says so and keeps the picker.
      await openPage(page, d.base, "/comparison?model=nobody%2Fnothing");
      assert.match(await page.textContent("#cmp-empty") ?? "", /No finished result of nobody/);
      assert.deepEqual(watch.errors, []);
    } finally {
      await browser.close();
      await d.close();
    }
  },
});

Deno.test({
  name:
    "Results say what to do when a filter matches nothing or VRAM is unknown, explain Δ and show tok/s on a phone",
  ignore: !hasChromium,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const d = await startDashboard();
    const browser = await launchChromium();
    addParallelRound(d.web.store, "tiny@q8_0", 98.7);
    try {
      const { page, watch } = await watchedPage(browser, d.base);
      await applyLook(page, LOOKS[2]!);
      await openPage(page, d.base, "/results");
      await page.waitForSelector("#results-table tbody tr td a");
      // On a phone the speed is on screen without scrolling the table.
      const speed = await page.locator("#results-table tbody tr:first-child td:nth-child(2)")
        .boundingBox();
      assert.ok(speed && speed.x + speed.width <= 390, `tok/s at ${JSON.stringify(speed)}`);
      assert.match(await page.textContent("#results-table thead") ?? "", /tok\/s/);
      assert.match(await page.textContent("#delta-legend") ?? "", /previous result/);
      // A parallel round shows beside the sequential speed, explained by the legend.
      const tiny = page.locator("#results-table tbody tr", {
        has: page.locator('a[title^="tiny@q8_0"]'),
      });
      assert.match(await tiny.textContent() ?? "", /98\.7 ×2/);
      assert.match(await page.textContent("#delta-legend") ?? "", /Parallel tok\/s: the total/);

      await page.fill("#filter-text", "no-such-model");
      await page.waitForSelector("#results-empty");
      assert.match(
        await page.textContent("#results-empty") ?? "",
        /No result matches “no-such-model”/,
      );
      // Nothing to chart: the one message above says why and what to do.
      assert.equal(await page.locator("#chart-scatter, #scatter-empty").count(), 0);
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(wide <= 390, `the page is ${wide} px wide on a phone`);
      await checkEveryLook(page, "results_no_match", LOOKS[2]!);
      await page.click("#clear-filters");
      assert.equal(await page.inputValue("#filter-text"), "");
      assert.equal(await page.locator("#results-table tbody tr").count(), 8);

      // Without profiling no result has a VRAM figure: the chart says why and what to do.
      d.web.store.db.exec("UPDATE results SET vram_mb = NULL");
      await applyLook(page, LOOKS[1]!);
      await openPage(page, d.base, "/results");
      await page.waitForSelector("#scatter-empty");
      assert.match(await page.textContent("#scatter-empty") ?? "", /--enable-profiling/);
      await page.screenshot({ path: shotPath("results_no_vram", LOOKS[1]!), fullPage: true });
      assert.deepEqual(watch.errors, []);
    } finally {
      await browser.close();
      await d.close();
    }
  },
});
