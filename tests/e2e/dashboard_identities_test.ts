/**
 * One row per identity on the dashboard: a variant measured with the configured prompt, as a grid
 * of two prompt lengths (two identities after the split) and under a second backend shows four
 * rows on Results, each with its workload under the name, and its speeds on Home's top 10 told
 * apart by the workload. Every look (desktop and phone, light and dark) is checked with axe and
 * photographed (`test-artifacts/identities_*.png`).
 *
 * @module
 */
import assert from "node:assert/strict";
import { hasChromium, launchChromium } from "./_browser.ts";
import { checkEveryLook, openPage, startDashboard, watchedPage } from "./_dashboard.ts";
import { LOOKS } from "./_axe.ts";
import type { ResultsStore } from "../../lib/store/mod.ts";
import { paramsHash } from "../../lib/store/mod.ts";

const MODEL = { model_key: "org/mini@q4_k_m", model_name: "org/mini", quantization: "q4_k_m" };

/** Stores one finished result of `MODEL` with these parameters and this speed. */
function result(
  store: ResultsStore,
  backend: string,
  workload: Record<string, unknown> | undefined,
  speed: number,
): number {
  const params = { backend, load: {}, prompt: "p", ...(workload ? { workload } : {}) };
  const id = store.beginResult({ model: MODEL, params_hash: paramsHash(params), backend, params });
  store.finishResult(id, {
    status: "ok",
    aggregates: { tokens_per_sec_mean: speed, tokens_per_sec_std: 1, runs_ok: 3, num_runs: 3 },
  });
  return id;
}

Deno.test({
  name: "Results and Home show one row per identity, each with its workload",
  ignore: !hasChromium,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const d = await startDashboard({ seed: false, modelServer: false });
    const store = d.web.store;
    result(store, "rest", undefined, 41);
    // A grid of two prompt lengths, stored as one result and split as a benchmark does.
    const grid = result(store, "rest", { prompt_tokens: [64, 256] }, 0);
    store.addGridCells(grid, [{ prompt_tokens: 64, runs: 3 }, { prompt_tokens: 256, runs: 3 }]);
    const runs = [[64, 52], [64, 54], [256, 30], [256, 31]] as const;
    for (const [i, [target, speed]] of runs.entries()) {
      store.addRun(grid, { run_index: i, prompt_tokens_target: target, tokens_per_sec: speed });
    }
    const [, second] = store.splitGrid(grid);
    assert.ok(second !== undefined);
    result(store, "sdk", undefined, 38);
    const browser = await launchChromium();
    try {
      const { page, watch } = await watchedPage(browser, d.base);
      await openPage(page, d.base, "/results");
      await page.waitForSelector("#results-table tbody tr");
      const rows = await page.locator("#results-table tbody tr").count();
      assert.equal(rows, 4, "the configured prompt under two backends and the grid's two cells");
      const workloads = await page.locator('[data-testid="workload"]').allTextContents();
      assert.deepEqual(workloads.sort(), ["prompt 256 tokens", "prompt 64 tokens"]);
      const backends = await page.locator("#results-table tbody tr td:nth-child(8)")
        .allTextContents();
      assert.deepEqual(backends.sort(), ["rest", "rest", "rest", "sdk"]);
      await checkEveryLook(page, "identities_results", LOOKS[0]!);

      await openPage(page, d.base, "/");
      const bars = await page.locator("#chart-top10 a").allTextContents();
      assert.equal(bars.length, 4);
      assert.ok(bars.some((b) => /prompt 64 tokens/.test(b)), bars.join(" | "));
      assert.ok(bars.some((b) => /q4_k_m \(sdk\)/.test(b)), "two backends told apart");
      assert.match(
        await page.locator("#kpi-basis").textContent() ?? "",
        /each model variant, backend, workload and machine/,
      );
      assert.equal((await page.locator("#kpi-models").textContent())?.includes("1"), true);
      await checkEveryLook(page, "identities_home", LOOKS[0]!);
      assert.deepEqual(watch.errors, []);
    } finally {
      await browser.close();
      await d.close();
    }
  },
});
