import assert from "node:assert/strict";
import { join } from "node:path";
import { hasChromium, launchChromiumContext } from "./_browser.ts";
import { writeSamples } from "../lib/reports/sample_reports.ts";

Deno.test({
  name: "the HTML report draws its charts offline in headless Chromium without console errors",
  ignore: !hasChromium,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "localbench-html-" });
    const profile = join(dir, "profile");
    const context = await launchChromiumContext(profile);
    try {
      const files = await writeSamples(join(dir, "results"));
      const blocked: string[] = [];
      await context.route("**/*", (route) => {
        const url = route.request().url();
        if (url.startsWith("file:")) return route.continue();
        blocked.push(url);
        return route.abort();
      });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("console", (m) => {
        if (m.type() === "error") errors.push(m.text());
      });
      page.on("pageerror", (e) => errors.push(String(e)));
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(`file://${files.html}`, { timeout: 15_000 });
      await page.waitForFunction(
        () => (globalThis as { reportReady?: boolean }).reportReady,
        null,
        {
          timeout: 15_000,
        },
      );
      const drawn = await page.evaluate(() => {
        const canvases = [...document.querySelectorAll("canvas")] as HTMLCanvasElement[];
        return canvases.map((c) => {
          const { data } = c.getContext("2d")!.getImageData(0, 0, c.width, c.height);
          let inked = 0;
          for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) inked++;
          return { id: c.id, inked };
        });
      });
      assert.deepEqual(drawn.map((d) => d.id), [
        "chart-top10",
        "chart-scatter",
        "chart-efficiency",
        "chart-trend",
      ]);
      for (const d of drawn) assert.ok(d.inked > 2000, `${d.id} is blank`);
      assert.deepEqual(errors, []);
      assert.deepEqual(blocked, []);

      const firstModel = () =>
        page.evaluate(() => document.querySelector("#results-table tbody tr td")!.textContent);
      const header = page.locator("#results-table th", { hasText: /^TTFT \(ms\)$/ });
      await header.click();
      assert.equal(await firstModel(), "google/gemma-3-12b");
      await header.click();
      assert.equal(await firstModel(), "meta/llama-3.2-1b");
      for (
        const id of ["summary", "results", "comparison", "statistics", "parameters", "profiling"]
      ) {
        assert.equal(await page.locator(`section#${id}`).count(), 1, id);
      }
    } finally {
      await context.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
