/**
 * Every dashboard page passes axe-core (no serious or critical violation) at 1440×900 and
 * 390×844 in the light and the dark theme, with data and empty; chart text keeps 4.5:1 on its
 * card in both themes (canvas text is out of axe's reach, so it is measured here). Screenshots
 * of each page and look go to `test-artifacts/`.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { hasChromium, launchChromium } from "./_browser.ts";
import { applyLook, expectAccessible, forEachLook, LOOKS, shotPath } from "./_axe.ts";
import { openPage, startDashboard, watchedPage } from "./_dashboard.ts";
import { waitFor } from "../_helpers.ts";

const PAGES: [string, string][] = [
  ["home", "/"],
  ["benchmark", "/benchmark"],
  ["results", "/results"],
  ["comparison", "/comparison?model=qwen%2Fqwen3-4b%40q8_0"],
];

/** WCAG's contrast ratio of two `rgb(...)`/`#rrggbb` colours. */
function contrast(a: string, b: string): number {
  const rgb = (c: string) => {
    const hex = /^#([0-9a-f]{6})$/i.exec(c.trim());
    const parts = hex
      ? [0, 2, 4].map((i) => parseInt(hex[1]!.slice(i, i + 2), 16))
      : (c.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
    const lin = parts.map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * lin[0]! + 0.7152 * lin[1]! + 0.0722 * lin[2]!;
  };
  const [hi, lo] = [rgb(a), rgb(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

/**
 * The text colours the drawn chart uses (its axes' ticks and titles, as the chart holds them,
 * not chart.js's defaults) and the card colour behind the canvas; `text` is the one of least
 * contrast.
 */
async function chartTextColors(page: Page, bundle: string, canvasId: string) {
  const found = await page.evaluate(async ({ bundle, canvasId }) => {
    const { Chart } = await import(bundle);
    const chart = Chart.getChart(canvasId);
    const card = document.getElementById(canvasId)!.closest(".card")!;
    // deno-lint-ignore no-explicit-any
    const scales = Object.values(chart.scales) as any[];
    const texts = scales.flatMap((
      s,
    ) => [String(s.options.ticks.color), String(s.options.title.color)]);
    return { texts, card: getComputedStyle(card).backgroundColor };
  }, { bundle, canvasId });
  const [text] = found.texts.sort((a, b) => contrast(a, found.card) - contrast(b, found.card));
  return { text: text ?? "", card: found.card, texts: found.texts };
}

Deno.test({
  name: "every dashboard page passes axe in both themes and both viewports",
  ignore: !hasChromium,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const d = await startDashboard();
    const empty = await startDashboard({ seed: false });
    const browser = await launchChromium();
    try {
      const { page, watch } = await watchedPage(browser, d.base);
      for (const [name, path] of PAGES) {
        await forEachLook(page, async (look) => {
          await openPage(page, d.base, path);
          await expectAccessible(page, `${name} ${look.name}`);
          const wide = await page.evaluate(() => document.documentElement.scrollWidth);
          assert.ok(wide <= look.viewport.width, `${name} ${look.name} is ${wide} px wide`);
          await page.screenshot({ path: shotPath(`dashboard_${name}`, look), fullPage: true });
        });
      }
      const other = await watchedPage(browser, empty.base);
      for (const [name, path] of PAGES) {
        await forEachLook(other.page, async (look) => {
          await openPage(other.page, empty.base, path);
          await expectAccessible(other.page, `${name} (empty store) ${look.name}`);
          await other.page.screenshot({
            path: shotPath(`dashboard_${name}_empty`, look),
            fullPage: true,
          });
        }, [LOOKS[0]!, LOOKS[3]!]);
      }
      assert.deepEqual([...watch.errors, ...other.watch.errors], []);
      assert.deepEqual([...watch.external, ...other.watch.external], []);
    } finally {
      await browser.close();
      await d.close();
      await empty.close();
    }
  },
});

Deno.test({
  name: "chart text keeps 4.5:1 on its card in light and dark, also after the scheme changes",
  ignore: !hasChromium,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const d = await startDashboard();
    const browser = await launchChromium();
    try {
      const { page } = await watchedPage(browser, d.base);
      for (const look of [LOOKS[0]!, LOOKS[1]!]) {
        await applyLook(page, look);
        await openPage(page, d.base, "/results");
        await page.waitForSelector('#chart-scatter[data-drawn="true"]');
        const c = await chartTextColors(page, "/_islands/chart_scatter.js", "chart-scatter");
        assert.ok(contrast(c.text, c.card) >= 4.5, `${look.name}: ${JSON.stringify(c)}`);
      }
      // Light → dark on an open page: the charts follow.
      await applyLook(page, LOOKS[0]!);
      await openPage(page, d.base, "/results");
      await page.waitForSelector('#chart-scatter[data-drawn="true"]');
      await page.emulateMedia({ colorScheme: "dark" });
      await page.waitForFunction(() => {
        const card = document.getElementById("chart-scatter")!.closest(".card")!;
        return getComputedStyle(card).backgroundColor !== "rgb(255, 255, 255)";
      });
      // The card turns dark at once; the chart re-themes on the media query's change event, a
      // moment later. Wait (bounded) for that, then measure: a chart that never follows fails.
      let after = { text: "", card: "" };
      await waitFor(async () => {
        after = await chartTextColors(page, "/_islands/chart_scatter.js", "chart-scatter");
        return contrast(after.text, after.card) >= 4.5;
      }, 10_000).catch(() => {});
      assert.ok(contrast(after.text, after.card) >= 4.5, JSON.stringify(after));
    } finally {
      await browser.close();
      await d.close();
    }
  },
});
