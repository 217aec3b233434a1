/**
 * The Benchmark form reads like an app (issue 19.4): grouped sections, human labels with the flag
 * as a hint, the server's effective defaults as placeholders, flash attention and memory-mapping
 * as one control each, no second preset box, and a refused value said on its field.
 */
import assert from "node:assert/strict";
import { hasChromium, launchChromium } from "./_browser.ts";
import { applyLook, expectAccessible, LOOKS, shotPath } from "./_axe.ts";
import { checkEveryLook, openPage, startDashboard, watchedPage } from "./_dashboard.ts";

Deno.test({
  name:
    "the Benchmark form groups labelled fields with the server's defaults and marks a refused one",
  ignore: !hasChromium,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const d = await startDashboard({
      seed: false,
      baseArgs: ["--runs", "2", "--limit", "1", "--max-tokens", "8"],
      userDefaults: { inference: { temperature: 0.3 }, load: { use_mmap: false } },
    });
    const browser = await launchChromium();
    try {
      const { page, watch } = await watchedPage(browser, d.base);
      await applyLook(page, LOOKS[0]!);
      await openPage(page, d.base, "/benchmark");
      assert.equal(await page.textContent('label[for="field-runs"]'), "Measured runs per model");
      assert.match(await page.textContent("#field-runs-hint") ?? "", /^--runs: /);
      assert.equal(await page.getAttribute("#field-runs", "placeholder"), "2");
      assert.equal(await page.getAttribute("#field-temperature", "placeholder"), "0.3");
      assert.equal(await page.getAttribute("#field-max-tokens", "placeholder"), "8");
      // One control for a flag and its negation, the default in force named.
      const mmap = await page.locator("#field-use-mmap option").allTextContents();
      assert.deepEqual(mmap, ["Default (off)", "On", "Off"]);
      const fa = await page.locator("#field-flash-attention option").allTextContents();
      assert.deepEqual(fa, ["Default (on)", "On", "Off"]);
      assert.equal(await page.locator("#field-no-flash-attention, #field-no-mmap").count(), 0);
      assert.equal(await page.locator("#field-preset").count(), 0, "the picker is the preset");
      const open = await page.$$eval(
        "#bench-form details",
        (ds) => ds.map((d) => [d.id, (d as HTMLDetailsElement).open]),
      );
      assert.deepEqual(open, [
        ["section-basic", true],
        ["section-filters", true],
        ["section-sampling", false],
        ["section-load", false],
        ["section-advanced", false],
      ]);
      await expectAccessible(page, "benchmark form");
      await page.screenshot({ path: shotPath("form", LOOKS[0]!), fullPage: true });

      // A refused value: its message on its field, the field marked and focused.
      await page.fill("#field-runs", "0");
      await page.click("#btn-start");
      await page.waitForSelector("#field-runs-error");
      assert.equal(
        await page.textContent("#field-runs-error"),
        "Must be an integer ≥ 1 (given: '0')",
      );
      assert.equal(await page.getAttribute("#field-runs", "aria-invalid"), "true");
      // The field takes the focus in the next animation frame: wait for it (bounded).
      await page.waitForFunction(() => document.activeElement?.id === "field-runs", null, {
        timeout: 5000,
      });
      assert.equal(await page.evaluate(() => document.activeElement?.id), "field-runs");
      assert.equal(await page.locator("#bench-error").count(), 0);
      await checkEveryLook(page, "form_error", LOOKS[0]!);
      await page.fill("#field-runs", "1");
      assert.equal(await page.locator("#field-runs-error").count(), 0, "typing clears it");

      // In a folded section: the section opens to show it.
      await page.evaluate(() =>
        (document.getElementById("section-sampling") as HTMLDetailsElement).open = true
      );
      await page.fill("#field-temperature", "9");
      await page.evaluate(() =>
        (document.getElementById("section-sampling") as HTMLDetailsElement).open = false
      );
      await page.click("#btn-start");
      await page.waitForSelector("#field-temperature-error");
      assert.equal(
        await page.evaluate(() =>
          (document.getElementById("section-sampling") as HTMLDetailsElement).open
        ),
        true,
      );
      await page.fill("#field-temperature", "");

      // The one control sends the flag it means.
      await page.evaluate(() =>
        (document.getElementById("section-load") as HTMLDetailsElement).open = true
      );
      await page.selectOption("#field-flash-attention", "off");
      await page.click("#btn-start");
      await page.waitForSelector('#bench-status[data-status="running"]');
      const status = await (await fetch(`${d.base}/api/status`)).json();
      assert.ok(status.args.includes("--no-flash-attention"), status.args.join(" "));
      assert.ok(status.args.includes("--runs"), status.args.join(" "));
      await page.click("#btn-stop");
      await page.waitForSelector('#bench-status[data-status="idle"]', { timeout: 30_000 });
      // The browser logs the two refused starts (400) it was made to send; nothing else.
      assert.deepEqual(watch.errors.filter((e) => !/status of 400/.test(e)), []);
    } finally {
      await browser.close();
      await d.close();
    }
  },
});
