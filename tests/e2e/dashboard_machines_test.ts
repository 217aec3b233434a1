/**
 * Machines on the dashboard (issue 30.2): Results shows the machine of each row and filters by
 * it; Comparison draws a line per machine, a load curve per machine and "this model on each
 * machine" as bars beside the machines' GPU, CPU and server; results stored before machines were
 * are an "unknown machine".
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { hasChromium, launchChromium } from "./_browser.ts";
import { applyLook, LOOKS, shotPath } from "./_axe.ts";
import { checkEveryLook, openPage, startDashboard, watchedPage } from "./_dashboard.ts";
import { insertRow } from "../../lib/store/rows.ts";
import type { ResultsStore } from "../../lib/store/mod.ts";
import { machineRecord } from "../lib/store/_machines.ts";

const QWEN = "qwen/qwen3-4b@q4_k_m";
const DESK = "aaaa000000000001";
const SERVER = "bbbb000000000002";

/** A chart's labels and its series' labels, as chart.js drew them. */
function drawn(
  page: Page,
  id: string,
  kind: "line" | "bar",
): Promise<{ labels: string[]; series: string[] }> {
  return page.evaluate(async ([id, kind]) => {
    const { Chart } = await import(`/_islands/chart_${kind}.js`);
    const chart = Chart.getChart(id);
    return {
      labels: (chart?.data.labels ?? []).map(String),
      // deno-lint-ignore no-explicit-any
      series: (chart?.data.datasets ?? []).map((d: any) => String(d.label)),
    };
  }, [id, kind]);
}

/** A load curve at concurrency 1, 2 and 4 whose output speed is `speed` times the level. */
function loadCurve(store: ResultsStore, resultId: number, speed: number): void {
  store.addLoadLevels(
    resultId,
    [1, 2, 4].map((level) => ({
      mode: "concurrency",
      level,
      requests: 8,
      ok: 8,
      failed: 0,
      duration_ms: 1000,
      output_tokens_per_sec: speed * level,
      latency_ms_p50: 100 * level,
      latency_ms_p99: 150 * level,
      knee: level === 4 ? 1 : 0,
    })),
  );
}

/**
 * Moves QWEN's seeded results to the desk and adds faster results of it on the server; the
 * newest result on each machine has a load curve.
 */
function twoMachines(store: ResultsStore): void {
  store.recordMachine(machineRecord(DESK, "desk"));
  store.recordMachine({
    ...machineRecord(SERVER, "rack-server"),
    gpus: [{ name: "NVIDIA H100", driver: "nvidia 560.1" }],
  });
  const model = store.db.prepare("SELECT id FROM models WHERE model_key = ?").get(QWEN) as {
    id: number;
  };
  store.db.prepare("UPDATE results SET machine_id = ? WHERE model_id = ?").run(DESK, model.id);
  const onDesk = store.db.prepare("SELECT MAX(id) AS id FROM results WHERE model_id = ?")
    .get(model.id) as { id: number };
  loadCurve(store, onDesk.id, 20);
  [88, 91].forEach((speed, i) => {
    const when = new Date(Date.UTC(2026, 0, 20 + i, 12)).toISOString();
    const id = insertRow(store.db, "results", {
      model_id: model.id,
      params_hash: "hash0",
      backend: "rest",
      status: "ok",
      started_at: when,
      finished_at: when,
      params_json: "{}",
      num_runs: 3,
      runs_ok: 3,
      runs_failed: 0,
      tokens_per_sec_mean: speed,
      ttft_ms_mean: 40,
      total_ms_mean: 900,
      machine_id: SERVER,
    });
    if (i === 1) loadCurve(store, id, 45);
  });
}

Deno.test({
  name: "Results filter by machine and Comparison shows the model on each machine",
  ignore: !hasChromium,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const d = await startDashboard();
    twoMachines(d.web.store);
    const browser = await launchChromium();
    try {
      const { page, watch } = await watchedPage(browser, d.base);
      await applyLook(page, LOOKS[0]!);
      await openPage(page, d.base, "/results");
      await page.waitForSelector("#results-table tbody tr td a");
      // The seeded store: 8 identities, one of them on two machines now: 9 rows.
      assert.equal(await page.locator("#results-table tbody tr").count(), 9);
      assert.match(await page.textContent("#results-table thead") ?? "", /Machine/);
      const options = await page.locator("#filter-machine option").allTextContents();
      assert.deepEqual(options, ["All machines", "desk", "rack-server", "unknown machine"]);
      await page.selectOption("#filter-machine", SERVER);
      await page.waitForFunction(() =>
        document.querySelectorAll("#results-table tbody tr").length === 1
      );
      const row = await page.textContent("#results-table tbody tr") ?? "";
      assert.match(row, /rack-server/);
      assert.match(row, /91\.0/);
      assert.match(await page.textContent("#results-count") ?? "", /1 of 9/);
      await checkEveryLook(page, "results_machine_filter", LOOKS[0]!);
      await page.selectOption("#filter-machine", "unknown");
      await page.waitForFunction(() =>
        document.querySelectorAll("#results-table tbody tr").length === 7
      );
      assert.match(await page.textContent("#results-table tbody") ?? "", /unknown machine/);
      assert.doesNotMatch(await page.textContent("#results-table tbody") ?? "", /desk/);
      // A filter and a text matching nothing together: said, and cleared in one click.
      await page.fill("#filter-text", "gemma");
      await page.selectOption("#filter-machine", DESK);
      await page.waitForSelector("#results-empty");
      assert.match(await page.textContent("#results-empty") ?? "", /machine desk/);
      await page.click("#clear-filters");
      assert.equal(await page.inputValue("#filter-machine"), "");

      // Comparison: a line per machine, and the model on each machine as bars.
      await openPage(page, d.base, `/comparison?model=${encodeURIComponent(QWEN)}`);
      await page.waitForSelector('#chart-speed[data-drawn="true"]');
      assert.deepEqual((await drawn(page, "chart-speed", "line")).series.sort(), [
        "qwen/qwen3-4b q4_k_m · on desk",
        "qwen/qwen3-4b q4_k_m · on rack-server",
      ]);
      assert.match(await page.textContent("#series-table") ?? "", /rack-server/);
      await page.waitForSelector('#chart-machines[data-drawn="true"]');
      const bars = await drawn(page, "chart-machines", "bar");
      assert.deepEqual(bars.labels, ["desk", "rack-server"]);
      assert.deepEqual(bars.series, ["qwen/qwen3-4b q4_k_m"]);
      const table = await page.textContent("#machines-table") ?? "";
      assert.match(table, /NVIDIA H100 \(nvidia 560\.1\)/);
      assert.match(table, /91\.0/);
      // A load curve per machine, each named by its machine.
      await page.waitForSelector('#chart-load-concurrency[data-drawn="true"]');
      assert.deepEqual((await drawn(page, "chart-load-concurrency", "line")).series, [
        "qwen/qwen3-4b@q4_k_m · on desk",
        "qwen/qwen3-4b@q4_k_m · on rack-server",
      ]);
      assert.match(await page.textContent("#load-levels") ?? "", /on rack-server/);
      await checkEveryLook(page, "comparison_machines", LOOKS[0]!);
      // The card itself, on a phone and a desktop, light and dark.
      for (const look of LOOKS) {
        await applyLook(page, look);
        await page.locator("#machines-card").screenshot({
          path: shotPath("comparison_machines_card", look),
        });
        await page.locator('[aria-label="Load levels"]').screenshot({
          path: shotPath("comparison_machines_load_levels", look),
        });
        await page.locator("#chart-load-concurrency").screenshot({
          path: shotPath("comparison_machines_load_curve", look),
        });
      }
      await applyLook(page, LOOKS[0]!);

      // The machine picker keeps one machine's lines; the card still compares every machine.
      await Promise.all([
        page.waitForURL(/machine=bbbb000000000002$/),
        page.selectOption("#machine", SERVER),
      ]);
      await page.waitForSelector('#chart-speed[data-drawn="true"]');
      assert.deepEqual((await drawn(page, "chart-speed", "line")).series, [
        "qwen/qwen3-4b q4_k_m",
      ]);
      assert.equal(await page.locator("#series-table tbody tr").count(), 1);
      assert.match(await page.textContent("#series-table tbody") ?? "", /rack-server/);
      assert.equal((await page.textContent("#cmp-runs .kpi-value"))?.trim(), "2");
      assert.equal(await page.locator("#machines-table tbody tr").count(), 2);
      // The server's load curve only, named as the variant alone.
      await page.waitForSelector('#chart-load-concurrency[data-drawn="true"]');
      assert.deepEqual((await drawn(page, "chart-load-concurrency", "line")).series, [
        "qwen/qwen3-4b@q4_k_m",
      ]);
      assert.equal(await page.locator("#load-levels tbody tr").count(), 3);
      await checkEveryLook(page, "comparison_one_machine", LOOKS[0]!);

      // A model measured on one machine only: a sentence, not a chart of one bar.
      await openPage(page, d.base, `/comparison?model=${encodeURIComponent("tiny@q8_0")}`);
      await page.waitForSelector("#machines-one");
      assert.match(await page.textContent("#machines-one") ?? "", /unknown machine only/);
      assert.equal(await page.locator("#chart-machines").count(), 0);
      assert.equal(await page.locator("#machine").count(), 0, "no machine to pick");
      assert.deepEqual(watch.errors, []);
    } finally {
      await browser.close();
      await d.close();
    }
  },
});
