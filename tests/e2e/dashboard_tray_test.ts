/**
 * The Benchmark page and the tray say what `/api/status` says (issue 19.1): the real tray
 * controller (its HTTP client, a fake icon) polls a real dashboard while a page is open in
 * Chromium; a Start from the tray that fails leaves all three idle with the failure on the page,
 * and a run started and stopped from the tray shows running, then idle, in both.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { hasChromium, launchChromium } from "./_browser.ts";
import { applyLook, LOOKS } from "./_axe.ts";
import {
  checkEveryLook,
  type Dashboard,
  openPage,
  startDashboard,
  watchedPage,
} from "./_dashboard.ts";
import { createLogger } from "../../lib/log.ts";
import { createDashboardClient, TrayController, type TrayState } from "../../lib/tray/mod.ts";
import { FakeTray, ManualClock } from "../lib/tray/_fakes.ts";

/** A tray controller on the dashboard, polled by hand (`clock.tick()`). */
function trayOn(d: Dashboard) {
  const tray = new FakeTray();
  const clock = new ManualClock();
  const controller = new TrayController(createDashboardClient(d.base), tray, {
    url: d.base,
    openUrl: () => Promise.resolve(),
    clock,
    log: createLogger("test", { sink: () => {} }),
  });
  const running = controller.run();
  /** Polls until the tray shows `state` (bounded). */
  const shows = async (state: TrayState) => {
    for (let i = 0; i < 100 && controller.state !== state; i++) {
      await controller.poll();
      if (controller.state !== state) await new Promise((r) => setTimeout(r, 100));
    }
    return controller.state;
  };
  return { tray, clock, controller, running, shows };
}

const apiStatus = async (d: Dashboard) => (await (await fetch(`${d.base}/api/status`)).json());
const pageStatus = (page: Page) => page.getAttribute("#bench-status", "data-status");

Deno.test({
  name: "a Start from the tray that fails leaves the tray, the page and /api/status idle",
  ignore: !hasChromium,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const d = await startDashboard({ seed: false, modelServer: false });
    const browser = await launchChromium();
    const t = trayOn(d);
    try {
      const { page, watch } = await watchedPage(browser, d.base);
      await applyLook(page, LOOKS[1]!);
      await openPage(page, d.base, "/benchmark");
      assert.equal(await t.shows("idle"), "idle");
      assert.equal(t.tray.last!.icon, "gray");

      await t.controller.click("start");
      // The page did not ask, so the failure comes as the last run's outcome, said as an alert.
      const failed = page.locator('#bench-outcome[data-outcome="failed"][role=alert]');
      await failed.waitFor({ timeout: 20_000 });
      assert.match(await failed.textContent() ?? "", /Last run failed: .*(model server|connect)/i);
      await page.waitForSelector('#bench-status[data-status="idle"]');
      const status = await apiStatus(d);
      assert.equal(status.status, "idle");
      assert.equal(status.outcome.outcome, "failed");
      assert.equal(await t.shows("idle"), "idle");
      assert.equal(t.tray.last!.icon, "gray");
      assert.ok(t.tray.last!.items.find((i) => i.id === "start")!.enabled);
      assert.equal(await pageStatus(page), "idle");
      assert.equal(await page.isEnabled("#btn-start"), true);
      await checkEveryLook(page, "tray_failed_start", LOOKS[1]!);
      assert.deepEqual(watch.errors, []);
    } finally {
      await t.tray.close(); // the icon goes away (Quit would shut the dashboard down)
      await t.running;
      await browser.close();
      await d.close();
    }
  },
});

Deno.test({
  name: "a run started and stopped from the tray shows running, then idle, on the page too",
  ignore: !hasChromium,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const d = await startDashboard({
      seed: false,
      tokenDelayMs: 30,
      baseArgs: ["--runs", "3", "--max-tokens", "200", "--limit", "1"],
    });
    const browser = await launchChromium();
    const t = trayOn(d);
    try {
      const { page, watch } = await watchedPage(browser, d.base);
      await applyLook(page, LOOKS[0]!);
      await openPage(page, d.base, "/benchmark");

      await t.controller.click("start");
      await page.waitForSelector('#bench-status[data-status="running"]', { timeout: 20_000 });
      assert.equal(await t.shows("running"), "running");
      assert.equal(t.tray.last!.icon, "green");
      assert.equal((await apiStatus(d)).status, "running");

      await t.controller.click("stop");
      await page.waitForSelector('#bench-status[data-status="idle"]', { timeout: 30_000 });
      assert.equal(await t.shows("idle"), "idle");
      assert.equal(t.tray.last!.icon, "gray");
      assert.equal((await apiStatus(d)).status, "idle");
      assert.equal(await page.isEnabled("#btn-start"), true);
      assert.deepEqual(watch.errors, []);
    } finally {
      await t.tray.close(); // the icon goes away (Quit would shut the dashboard down)
      await t.running;
      await browser.close();
      await d.close();
    }
  },
});
