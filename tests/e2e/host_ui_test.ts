/**
 * Browser test of the plugin host's pages (Chromium through playwright-core): login, the log
 * viewer's search and live tail, the alert badge, and the navbar uptime widget; the viewer with
 * results, and with the live tail and the alert history open, passes axe in the four looks.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { hasChromium, launchChromium } from "./_browser.ts";
import { expectAccessible, forEachLook, shotPath } from "./_axe.ts";
import { createHost } from "../../lib/host/mod.ts";
import { createUptimePlugin } from "../../plugins/host_uptime/mod.ts";
import { createLogMonitorPlugin } from "../../plugins/logmonitor/mod.ts";
import { serveHostApp } from "../_web.ts";

/** axe (no serious or critical violation, contrast included) and a photograph in each look. */
async function checkLooks(page: Page, name: string): Promise<void> {
  await forEachLook(page, async (look) => {
    await expectAccessible(page, `${name} ${look.name}`);
    await page.screenshot({ path: shotPath(name, look), fullPage: true });
  });
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.emulateMedia({ colorScheme: "light" });
}

const line = (level: string, msg: string) =>
  `2024-01-01 12:00:00,000 - ui.test - ${level} - ${msg}\n`;

Deno.test({
  name:
    "the log viewer searches, tails a growing file and counts alerts, and the uptime widget shows both uptimes",
  ignore: !hasChromium,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "lb_ui_" });
    const host = createHost({
      plugins: [
        createLogMonitorPlugin({ pollMs: 50 }),
        createUptimePlugin({ readProc: () => Promise.resolve("93784.2 10.0\n") }),
      ],
      dataDir: dir,
    });
    await Deno.mkdir(host.paths.logDir, { recursive: true });
    const app = `${host.paths.logDir}/app.log`;
    await Deno.writeTextFile(
      app,
      line("INFO", "boot") + line("WARNING", "needle in the haystack") +
        line("ERROR", "hook failed") +
        'Traceback (most recent call last):\n  File "plugin.py", line 3, in run\nValueError: bad\n' +
        line("INFO", "done"),
    );
    const served = await serveHostApp(host);
    await host.users.addUser("viewer", "viewer-pass", ["STATUS", "CONTROL"]);
    await host.settings.updateMany({ logmonitor: { default_log_file: "app.log" } });
    const browser = await launchChromium();
    const errors: string[] = [];
    try {
      const page = await browser.newPage();
      page.on("pageerror", (e) => errors.push(String(e)));
      // The strict CSP (no inline script or style) must not block anything the pages do.
      page.on("console", (m) => /Content.Security.Policy/i.test(m.text()) && errors.push(m.text()));
      const base = `http://127.0.0.1:${served.port}`;
      // The former URL, as bookmarked: redirected to the plugin's page, then to the login.
      await page.goto(`${base}/plugins/logs`);
      assert.match(page.url(), /\/plugins\/login\?next=%2Fplugins%2Flogmonitor%2F$/);
      await page.fill("input[name=user]", "viewer");
      await page.fill("input[name=pass]", "viewer-pass");
      await page.click("button[type=submit]");
      await page.waitForURL(`${base}/plugins/logmonitor/`);

      const uptime = page.locator("[data-testid=uptime]");
      await uptime.filter({ hasText: "Uptime: System 1d 2h 3m 4s | Host" }).waitFor({
        timeout: 10_000,
      });
      assert.match(await uptime.getAttribute("title") ?? "", /System started: .*\nHost started: /);

      await page.fill("[data-testid=query]", "needle");
      await page.click("[data-testid=search]");
      const results = page.locator("[data-testid=results]");
      const total = page.locator("[data-testid=total]");
      await results.filter({ hasText: "needle in the haystack" }).waitFor({ timeout: 10_000 });
      // The listing shown before the answer holds the line too: wait for the search's total.
      await total.filter({ hasText: /Matches 1-1 of 1/ }).waitFor({ timeout: 10_000 });

      assert.equal(await page.locator("[data-testid=regex]").isDisabled(), true);
      await page.fill("[data-testid=query]", "valueerror");
      await page.click("[data-testid=search]");
      await results.filter({ hasText: "ValueError: bad" }).waitFor({ timeout: 10_000 });
      await total.filter({ hasText: /Matches 1-1 of 1/ }).waitFor({ timeout: 10_000 });
      const row = results.locator("tr").first();
      assert.equal(await row.locator(".lv").innerText(), "ERROR", "the traceback is in its entry");
      assert.match(await row.locator(".msg").innerText(), /hook failed\nTraceback/);
      await checkLooks(page, "host_logs_search");

      await page.click("[data-testid=live]");
      await page.locator("[data-testid=live-lines]").filter({ hasText: "done" }).waitFor({
        timeout: 10_000,
      });
      await page.locator(".push-state.on").waitFor({ timeout: 10_000 });
      await Deno.writeTextFile(app, line("INFO", "appended while watching"), { append: true });
      await page.locator("[data-testid=live-lines]").filter({ hasText: "appended while watching" })
        .waitFor({ timeout: 10_000 });

      await Deno.writeTextFile(
        `${host.paths.logDir}/host.log`,
        line("ERROR", "browser sees this alert"),
        { append: true },
      );
      await page.locator("[data-testid=alerts]").filter({ hasText: "Alerts: 1" }).waitFor({
        timeout: 10_000,
      });
      await page.click("[data-testid=history-toggle]");
      await page.locator("[data-testid=history]").filter({ hasText: "browser sees this alert" })
        .waitFor({ timeout: 10_000 });
      await checkLooks(page, "host_logs_live_history");
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
      await served.shutdown();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
