/**
 * The HTML report's layout in Chromium: at 1440 × 900 and 1366 × 768 every table fits its section
 * (no column behind a horizontal scroll), five chosen percentiles included, light and dark; at 390 × 844 nothing is wider than the
 * screen and the results are cards of labelled values.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { renderHtml } from "../../lib/reports/mod.ts";
import { hasChromium, launchChromium } from "./_browser.ts";
import { FIXTURE_MODELS } from "../lib/reports/fixtures.ts";
import { fixtureReport } from "../lib/reports/report_data.ts";
import { writeSamples } from "../lib/reports/sample_reports.ts";

/** Widths of the page and of every table against its container. */
interface Layout {
  page: number;
  tables: { id: string; width: number; room: number }[];
  background: string;
  results: { display: string; rowDisplay: string };
}

function layoutOf(): Layout {
  const tables = [...document.querySelectorAll("table")].map((t, i) => ({
    id: t.id || `table ${i + 1}`,
    width: t.scrollWidth,
    room: t.parentElement!.clientWidth,
  }));
  const results = document.querySelector("#results-table")!;
  return {
    page: document.documentElement.scrollWidth,
    tables,
    background: getComputedStyle(document.body).backgroundColor,
    results: {
      display: getComputedStyle(results).display,
      rowDisplay: getComputedStyle(results.querySelector("tbody tr")!).display,
    },
  };
}

Deno.test({
  name:
    "the HTML report's tables fit 1440 and 1366 px without a scroll and become cards on a phone",
  ignore: !hasChromium,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "localbench-html-layout-" });
    const browser = await launchChromium();
    try {
      // With a comparison (two Δ columns), parallel rounds and a long model name.
      const compared = (await writeSamples(join(dir, "samples"))).html!;
      const wide = join(dir, "wide.html");
      await Deno.writeTextFile(
        wide,
        await renderHtml(
          await fixtureReport({}, {
            models: [
              {
                ...FIXTURE_MODELS[0]!,
                parallel: { n: 4, totals: [150, 152], latencies: [900, 950] },
              },
              ...FIXTURE_MODELS.slice(1),
              {
                ...FIXTURE_MODELS[1]!,
                key: "lmstudio-community/deepseek-r1-distill-qwen-14b-instruct-2507@q4_k_m",
              },
            ],
          }),
        ),
      );
      // Five chosen percentiles (--percentiles 50,90,95,99,99.9): the widest latency table.
      const percentiles = join(dir, "percentiles.html");
      await Deno.writeTextFile(
        percentiles,
        await renderHtml(await fixtureReport({ percentiles: [50, 90, 95, 99, 99.9] })),
      );
      for (const file of [compared, wide, percentiles]) {
        for (const scheme of ["light", "dark"] as const) {
          for (const [width, height] of [[1440, 900], [1366, 768], [390, 844]] as const) {
            const context = await browser.newContext({
              viewport: { width, height },
              colorScheme: scheme,
            });
            try {
              const page = await context.newPage();
              await page.goto(`file://${file}`);
              await page.waitForFunction(() =>
                (globalThis as { reportReady?: boolean }).reportReady
              );
              const l = await page.evaluate(layoutOf);
              const what = `${file.split("/").at(-1)} ${scheme} ${width}`;
              assert.ok(l.page <= width, `${what}: the page is ${l.page} px wide`);
              assert.equal(
                l.background,
                scheme === "dark" ? "rgb(15, 23, 42)" : "rgb(249, 250, 251)",
                what,
              );
              if (width >= 1366) {
                assert.ok(l.tables.length >= 6, what);
                for (const t of l.tables) {
                  assert.ok(t.width <= t.room, `${what}: ${t.id} is ${t.width} px in ${t.room}`);
                }
                assert.equal(l.results.display, "table", what);
              } else {
                assert.equal(l.results.rowDisplay, "block", `${what}: results as cards`);
                const results = l.tables.find((t) => t.id === "results-table")!;
                assert.ok(results.width <= results.room, `${what}: results ${results.width} px`);
              }
            } finally {
              await context.close();
            }
          }
        }
      }
    } finally {
      await browser.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
