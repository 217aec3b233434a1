/**
 * What the dashboard's pages ship: Home loads at most 60 KB of script gzipped (the sum of the
 * gzipped sizes of every script it loads), each page loads the chart.js bundle of the chart
 * types it draws and no other, each bundle registers only its type, and the browser receives
 * the page and its scripts compressed.
 */
import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import type { Browser, Page } from "playwright-core";
import { hasChromium, launchChromium } from "./_browser.ts";
import { openPage, startDashboard, watchedPage } from "./_dashboard.ts";

/**
 * The scripts a page loads while `open` runs (in a fresh context: nothing cached): path → body
 * bytes and the encoding it came in.
 */
async function scriptsOf(browser: Browser, open: (page: Page) => Promise<void>) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const scripts = new Map<string, { bytes: Uint8Array; encoding: string | null }>();
  const pending: Promise<void>[] = [];
  const onResponse = (r: import("playwright-core").Response) => {
    if (r.request().resourceType() !== "script") return;
    pending.push((async () => {
      const headers = await r.allHeaders();
      scripts.set(new URL(r.url()).pathname, {
        bytes: new Uint8Array(await r.body()),
        encoding: headers["content-encoding"] ?? null,
      });
    })());
  };
  page.on("response", onResponse);
  await open(page);
  await page.waitForLoadState("networkidle");
  await Promise.all(pending);
  await context.close();
  return scripts;
}

const gzipped = (b: Uint8Array) => gzipSync(b, { level: 9 }).length;

Deno.test({
  name: "Home ships at most 60 KB of script gzipped and each page only its chart types",
  ignore: !hasChromium,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const d = await startDashboard();
    const browser = await launchChromium();
    try {
      const { page, watch } = await watchedPage(browser, d.base);
      const home = await scriptsOf(browser, (p) => openPage(p, d.base, "/"));
      const homeBytes = [...home.values()].reduce((a, s) => a + gzipped(s.bytes), 0);
      assert.ok(homeBytes <= 60 * 1024, `Home loads ${homeBytes} B gzipped: ${[...home.keys()]}`);

      const charts = (s: Map<string, unknown>) =>
        [...s.keys()].filter((u) => u.includes("/chart_")).sort();
      const results = await scriptsOf(browser, async (p) => {
        await openPage(p, d.base, "/results");
        await p.waitForSelector('#chart-scatter[data-drawn="true"]');
      });
      assert.deepEqual(charts(results), ["/_islands/chart_scatter.js"]);
      for (const [url, s] of results) {
        if (s.bytes.length >= 1024) assert.equal(s.encoding, "gzip", `${url} came compressed`);
      }
      const comparison = await scriptsOf(browser, async (p) => {
        await openPage(p, d.base, "/comparison?model=qwen%2Fqwen3-4b");
        await p.waitForSelector('#chart-speed[data-drawn="true"]');
      });
      assert.deepEqual(charts(comparison), ["/_islands/chart_line.js"]);

      // Each bundle registers its own controller and nothing else.
      await openPage(page, d.base, "/");
      for (const type of ["bar", "doughnut", "line", "scatter"]) {
        const registered = await page.evaluate(async (url) => {
          const { Chart } = await import(url);
          return Object.keys(Chart.registry.controllers.items);
        }, `/_islands/chart_${type}.js`);
        assert.deepEqual(registered, [type]);
      }
      const page1 = await fetch(`${d.base}/`, { headers: { "Accept-Encoding": "gzip, br" } });
      assert.equal(page1.headers.get("Content-Encoding"), "gzip");
      await page1.body?.cancel();
      assert.deepEqual(watch.errors, []);
    } finally {
      await browser.close();
      await d.close();
    }
  },
});
