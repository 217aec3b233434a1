/**
 * Browser test of the log viewer's live tail (Chromium through playwright-core): an error whose
 * traceback is written in three parts 400 ms apart — each part reaching the page in a push of its
 * own, the later ones flagged `continuation` — shows as one row holding the whole traceback.
 */
import assert from "node:assert/strict";
import { hasChromium, launchChromium } from "./_browser.ts";
import { expectAccessible, forEachLook, shotPath } from "./_axe.ts";
import { createHost } from "../../lib/host/mod.ts";
import { createLogMonitorPlugin } from "../../plugins/logmonitor/mod.ts";
import { serveHostApp } from "../_web.ts";

const line = (level: string, msg: string) =>
  `2024-01-01 12:00:00,000 - live.test - ${level} - ${msg}\n`;

Deno.test({
  name: "the live tail shows a traceback written in three parts 400 ms apart as one row",
  ignore: !hasChromium,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "lb_live_tb_" });
    const host = createHost({ plugins: [createLogMonitorPlugin({ pollMs: 50 })], dataDir: dir });
    await Deno.mkdir(host.paths.logDir, { recursive: true });
    const app = `${host.paths.logDir}/app.log`;
    await Deno.writeTextFile(app, line("INFO", "boot"));
    const served = await serveHostApp(host);
    await host.users.addUser("viewer", "viewer-pass", ["STATUS"]);
    await host.settings.updateMany({ logmonitor: { default_log_file: "app.log" } });
    const pushes: unknown[] = [];
    host.push.observe((plugin, data) => {
      if (plugin === "logmonitor" && data.type === "log_lines") pushes.push(data.data);
    });
    const browser = await launchChromium();
    const errors: string[] = [];
    try {
      const page = await browser.newPage();
      page.on("pageerror", (e) => errors.push(String(e)));
      const base = `http://127.0.0.1:${served.port}`;
      await page.goto(`${base}/plugins/login?next=%2Fplugins%2Flogmonitor%2F`);
      await page.fill("input[name=user]", "viewer");
      await page.fill("input[name=pass]", "viewer-pass");
      await page.click("button[type=submit]");
      await page.waitForURL(`${base}/plugins/logmonitor/`);
      await page.click("[data-testid=live]");
      const live = page.locator("[data-testid=live-lines]");
      await live.filter({ hasText: "boot" }).waitFor({ timeout: 10_000 });
      await page.locator(".push-state.on").waitFor({ timeout: 10_000 });

      const parts = [
        line("ERROR", "hook failed") + "Traceback (most recent call last):\n",
        '  File "plugin.py", line 3, in run\n    check(value)\n',
        "ValueError: bad value\n",
      ];
      for (const [i, part] of parts.entries()) {
        if (i > 0) await new Promise((r) => setTimeout(r, 400));
        await Deno.writeTextFile(app, part, { append: true });
      }
      await live.filter({ hasText: "ValueError: bad value" }).waitFor({ timeout: 10_000 });
      // The parts did reach the page in pushes of their own (the case under test).
      assert.ok(pushes.length >= 3, `pushes: ${JSON.stringify(pushes)}`);

      const rows = live.locator("tr");
      assert.equal(await rows.count(), 2, "boot, then the error with its whole traceback");
      const row = rows.nth(1);
      assert.equal(await row.locator(".lv").innerText(), "ERROR");
      assert.equal(
        await row.locator(".msg").innerText(),
        'hook failed\nTraceback (most recent call last):\n  File "plugin.py", line 3, in run\n' +
          "    check(value)\nValueError: bad value",
      );
      await forEachLook(page, async (look) => {
        await expectAccessible(page, `live traceback ${look.name}`);
        await page.screenshot({
          path: shotPath("logmonitor_live_traceback", look),
          fullPage: true,
        });
      });
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
      await served.shutdown();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
