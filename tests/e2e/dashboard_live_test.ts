/**
 * The Benchmark page as a person uses it (issue 19.1, 19.3): a start that fails ends idle with
 * the error shown as an alert, in agreement with `/api/status`; a run started from the bottom of
 * the page brings the live view into sight, shows every phase (load, warmup, runs, parallel
 * rounds, load-curve levels) with the progress and the time left, follows the output unless
 * the user scrolls up, says why the hardware chart is empty, ends at 100%, and the next run
 * starts clean.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { hasChromium, launchChromium } from "./_browser.ts";
import { applyLook, LOOKS, shotPath } from "./_axe.ts";
import { checkEveryLook, openPage, startDashboard, watchedPage } from "./_dashboard.ts";

const output = (page: Page) => page.textContent("#live-output").then((t) => t ?? "");

async function waitOutput(page: Page, re: RegExp, timeout = 30_000): Promise<void> {
  await page.waitForFunction(
    (src) => new RegExp(src).test(document.getElementById("live-output")?.textContent ?? ""),
    re.source,
    { timeout },
  );
}

Deno.test({
  name: "a start without a model server ends idle with the error shown, as /api/status says",
  ignore: !hasChromium,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const d = await startDashboard({ seed: false, modelServer: false });
    const browser = await launchChromium();
    try {
      const { page, watch } = await watchedPage(browser, d.base);
      await applyLook(page, LOOKS[0]!);
      await openPage(page, d.base, "/benchmark");
      await page.click("#btn-start");
      const alert = page.locator("#bench-error[role=alert]");
      await alert.waitFor({ timeout: 20_000 });
      assert.match(await alert.textContent() ?? "", /model server|connect|answer/i);
      await page.waitForSelector('#bench-status[data-status="idle"]');
      assert.equal(await page.isEnabled("#btn-start"), true);
      assert.equal(await page.isDisabled("#btn-stop"), true);
      const status = await (await fetch(`${d.base}/api/status`)).json();
      assert.equal(status.status, "idle");
      assert.equal(status.outcome.outcome, "failed");
      assert.match(await output(page), /\[error\] Benchmark not started/);
      await checkEveryLook(page, "live_failed_start", LOOKS[0]!);
      // A reload replays the closing idle, not a stale "running", and keeps the failure said.
      await openPage(page, d.base, "/benchmark");
      await page.waitForSelector('#bench-outcome[data-outcome="failed"]');
      assert.equal(await page.getAttribute("#bench-status", "data-status"), "idle");
      assert.equal(await page.isEnabled("#btn-start"), true);
      assert.deepEqual(watch.external, []);
    } finally {
      await browser.close();
      await d.close();
    }
  },
});

Deno.test({
  name: "a run shows every phase with progress and ETA, follows the output and ends at 100%",
  ignore: !hasChromium,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const d = await startDashboard({
      seed: false,
      tokenDelayMs: 15,
      baseArgs: [
        "--runs",
        "2",
        "--max-tokens",
        "64",
        "--limit",
        "1",
        "--n-parallel",
        "2",
        "--concurrency",
        "1,2",
        "--requests",
        "2",
      ],
    });
    const browser = await launchChromium();
    try {
      const { page, watch } = await watchedPage(browser, d.base);
      await applyLook(page, LOOKS[0]!);
      await openPage(page, d.base, "/benchmark");
      assert.match(await page.textContent("#hw-empty") ?? "", /--enable-profiling/);
      await page.evaluate(() => scrollTo(0, document.body.scrollHeight));
      await page.click("#btn-start");
      await page.waitForSelector('#bench-status[data-status="running"]');
      // The live view comes up just below the controls, which stay at the top of the window
      // with Pause and Stop in sight, and the output takes the focus.
      await page.waitForFunction(() => {
        const top = document.getElementById("live")!.getBoundingClientRect().top;
        const controls = document.querySelector(".controls")!.getBoundingClientRect();
        return Math.abs(controls.top) < 5 && Math.abs(top - controls.bottom - 8) < 12 &&
          document.activeElement?.id === "live-output";
      });
      await page.waitForSelector("#bench-eta", { timeout: 20_000 });
      assert.match(await page.textContent("#bench-eta") ?? "", /^about \d/);
      await page.waitForSelector("#hw-empty");
      assert.match(await page.textContent("#hw-empty") ?? "", /Profiling is off/);

      // Following: at the bottom while text comes; scrolled up, it stays where the user put it.
      await page.waitForFunction(
        () => {
          const el = document.getElementById("live-output")!;
          return el.scrollHeight > el.clientHeight + 100;
        },
        undefined,
        { timeout: 30_000 },
      );
      const atBottom = await page.evaluate(() => {
        const el = document.getElementById("live-output")!;
        return el.scrollTop + el.clientHeight >= el.scrollHeight - 30;
      });
      assert.ok(atBottom, "the output follows new text");
      await page.evaluate(() => {
        const el = document.getElementById("live-output")!;
        el.scrollTop = 0;
        el.dispatchEvent(new Event("scroll"));
      });
      const before = (await output(page)).length;
      await page.waitForFunction(
        (n) => (document.getElementById("live-output")?.textContent ?? "").length > n + 50,
        before,
      );
      assert.equal(await page.evaluate(() => document.getElementById("live-output")!.scrollTop), 0);

      await waitOutput(page, /parallel round 2\/2[^]*tok\/s together/);
      await checkEveryLook(page, "live_running", LOOKS[0]!);
      // Scrolled to the bottom of the page, Pause and Stop are still in sight.
      await page.evaluate(() => scrollTo(0, document.body.scrollHeight));
      const stopBox = await page.evaluate(() => {
        const r = document.getElementById("btn-stop")!.getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, height: innerHeight };
      });
      assert.ok(stopBox.top >= 0 && stopBox.bottom <= stopBox.height, JSON.stringify(stopBox));
      await waitOutput(page, /load curve: 2 at once[^]*req\/s, latency p99/);
      await page.waitForSelector('#bench-status[data-status="idle"]', { timeout: 30_000 });
      assert.equal(await page.textContent("#bench-percent"), "100%");
      assert.equal(await page.evaluate(() => document.querySelector("progress")!.value), 100);
      assert.match(await page.textContent("#bench-outcome") ?? "", /completed: 1 measured/);
      const text = await output(page);
      for (const phase of ["loading", "loaded", "warmup done", "run 1/2:", "run 2/2:"]) {
        assert.ok(text.includes(phase), `no '${phase}' in the output`);
      }
      // One variant measured: the speed chart names runs and rounds, not the variant again.
      // The rounds' line came after the chart was drawn: its legend says which line is which.
      const drawn = await page.evaluate(async () => {
        const { Chart } = await import("/_islands/chart_line.js");
        const chart = Chart.getChart("chart-live-runs");
        return {
          labels: chart.data.labels,
          legend: chart.legend.legendItems.map((i: { text: string }) => i.text),
          shown: chart.options.plugins.legend.display === true && chart.legend.height > 0,
        };
      });
      assert.deepEqual(drawn.labels, ["run 1", "run 2", "×2 round 1", "×2 round 2"]);
      assert.deepEqual(drawn.legend, ["tok/s per run", "tok/s per parallel round"]);
      assert.equal(drawn.shown, true, "the legend is drawn");
      await page.screenshot({ path: shotPath("live_done", LOOKS[0]!), fullPage: true });
      const status = await (await fetch(`${d.base}/api/status`)).json();
      assert.equal(status.progress.percent, 100);

      // The next run starts clean: the last run's closing line is gone.
      await d.web.store.db.exec("DELETE FROM results");
      await page.click("#btn-start");
      await page.waitForSelector('#bench-status[data-status="running"]');
      assert.ok(!(await output(page)).includes("Benchmark completed"));
      await page.click("#btn-stop");
      await page.waitForSelector('#bench-status[data-status="idle"]', { timeout: 30_000 });
      // A stopped run looks stopped: a grey bar that kept its place, the outcome in words.
      await page.waitForSelector('#bench-progress[data-outcome="stopped"]');
      assert.notEqual(await page.textContent("#bench-percent"), "100%");
      assert.match(await page.textContent("#bench-outcome") ?? "", /stopped/);
      await page.screenshot({ path: shotPath("live_stopped", LOOKS[0]!), fullPage: false });
      assert.deepEqual(watch.errors, []);
    } finally {
      await browser.close();
      await d.close();
    }
  },
});
