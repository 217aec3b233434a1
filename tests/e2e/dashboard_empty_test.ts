/**
 * Empty pages say why and what to do (issue 19.6): with no result, Home, Results and Comparison
 * show no zeros, empty tables or empty pickers but one sentence linking to the Benchmark page;
 * with results but no VRAM figure, Home's efficiency ranking says to sample the hardware.
 */
import assert from "node:assert/strict";
import { hasChromium, launchChromium } from "./_browser.ts";
import { applyLook, LOOKS, shotPath } from "./_axe.ts";
import { openPage, startDashboard, watchedPage } from "./_dashboard.ts";

Deno.test({
  name: "with no result each page says so once and links to the Benchmark page",
  ignore: !hasChromium,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const d = await startDashboard({ seed: false });
    const browser = await launchChromium();
    try {
      const { page, watch } = await watchedPage(browser, d.base);
      await applyLook(page, LOOKS[0]!);

      await openPage(page, d.base, "/");
      assert.match(await page.textContent("#home-empty") ?? "", /No results yet: start a bench/);
      for (const id of ["kpi-avg", "kpi-p50", "kpi-p95"]) {
        assert.equal((await page.textContent(`#${id} .kpi-value`))?.trim(), "–", id);
      }
      await Promise.all([page.waitForURL(/\/benchmark$/), page.click("#home-empty a")]);

      await openPage(page, d.base, "/results");
      await page.waitForSelector("#results-empty");
      assert.match(await page.textContent("#results-empty") ?? "", /No results yet/);
      assert.equal(await page.getAttribute("#results-empty a", "href"), "/benchmark");
      for (const gone of ["#results-table", "#filter-text", "#scatter-empty", "#chart-scatter"]) {
        assert.equal(await page.locator(gone).count(), 0, `${gone} is shown`);
      }
      await page.screenshot({ path: shotPath("results_empty", LOOKS[0]!), fullPage: false });

      await openPage(page, d.base, "/comparison");
      assert.match(await page.textContent("#cmp-empty") ?? "", /No history yet: start a bench/);
      assert.equal(await page.getAttribute("#cmp-empty a", "href"), "/benchmark");
      assert.equal(await page.locator("#model").count(), 0, "an empty picker is shown");
      assert.deepEqual(watch.errors, []);
    } finally {
      await browser.close();
      await d.close();
    }
  },
});

Deno.test({
  name: "Home says how to rank by efficiency when no result has a VRAM figure",
  ignore: !hasChromium,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const d = await startDashboard();
    d.web.store.db.exec("UPDATE results SET vram_mb = NULL, tokens_per_sec_per_gb = NULL");
    const browser = await launchChromium();
    try {
      const { page, watch } = await watchedPage(browser, d.base);
      await applyLook(page, LOOKS[3]!);
      await openPage(page, d.base, "/");
      assert.match(await page.textContent("#efficiency-empty") ?? "", /--enable-profiling/);
      // On a phone the flag stays whole (a line never breaks inside "--enable-profiling").
      const flagLines = await page.evaluate(() =>
        document.querySelector("#efficiency-empty .flag")!.getClientRects().length
      );
      assert.equal(flagLines, 1);
      assert.equal(await page.locator("#home-empty").count(), 0);
      assert.notEqual((await page.textContent("#kpi-avg .kpi-value"))?.trim(), "–");
      await page.screenshot({ path: shotPath("home_no_vram", LOOKS[3]!), fullPage: true });
      assert.deepEqual(watch.errors, []);
    } finally {
      await browser.close();
      await d.close();
    }
  },
});
