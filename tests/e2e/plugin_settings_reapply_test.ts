/**
 * A hub address changed through the power settings screen of the host run as `deno task host`
 * runs it (launcher → permission-scoped host): "Test connection" checks the new address through
 * the launcher, Save says the host is re-applying while the launcher restarts it under the wider
 * scope, the page reconnects with the same session, and the power page shows the hub's channels.
 */
import assert from "node:assert/strict";
import { hasChromium, launchChromium } from "./_browser.ts";
import { shotPath, VIEWPORTS } from "./_axe.ts";
import { startScopedHost } from "./_scoped_host.ts";
import { ensureIslandsBuilt } from "../_helpers.ts";
import { startHubSimulator } from "../doubles/powerhub_sim.ts";
import { createHost } from "../../lib/host/mod.ts";
import { createLogger } from "../../lib/log.ts";

Deno.test({
  name:
    "a hub address saved on the settings screen re-applies the scoped host and the page reconnects signed in",
  ignore: !hasChromium,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "lb_reapply_" });
    await ensureIslandsBuilt();
    // An account with a password (and a key for the helper), as `deno task host -- user add` makes.
    const seed = createHost({
      plugins: [],
      dataDir,
      logger: createLogger("t", { sink: () => {} }),
    });
    await Deno.mkdir(seed.paths.hostDir, { recursive: true });
    await seed.users.addUser("ada", "ada-pass", ["ADMIN"]);
    const key = await seed.users.createKey("ada");
    const sim = await startHubSimulator({ port: 0 });
    const h = await startScopedHost({ dataDir, args: [], key });
    const browser = await launchChromium();
    const errors: string[] = [];
    try {
      const page = await browser.newPage({ viewport: VIEWPORTS.desktop });
      page.on("pageerror", (e) => errors.push(String(e)));
      await page.goto(`${h.base}/plugins/login?next=%2Fplugins%2Fbranchplus%2Fsettings`);
      await page.waitForSelector('html[data-hydrated="true"]');
      await page.fill("input[name=user]", "ada");
      await page.fill("input[name=pass]", "ada-pass");
      await page.click("button[type=submit]");
      await page.waitForURL(`${h.base}/plugins/branchplus/settings`);
      await page.waitForSelector('html[data-hydrated="true"]');

      await page.fill("#set-branchplus-host", sim.host);
      await page.fill("#set-branchplus-port", String(sim.port));
      await page.fill("#set-branchplus-path", sim.path);
      // The host may not reach the address yet: the launcher checks it for the page.
      await page.click("[data-testid=test-connection]");
      await page.locator("[data-testid=probe-result]").filter({ hasText: "reports 10 channels" })
        .waitFor({ timeout: 15_000 });

      await page.click("[data-testid=save]");
      const status = page.locator("[data-testid=status]");
      await status.filter({ hasText: "Re-applying" }).waitFor({ timeout: 10_000 });
      assert.match(await status.innerText(), new RegExp(`${sim.host}:${sim.port}`));
      await page.screenshot({ path: shotPath("plugins_settings_reapplying", LOOK) });
      await status.filter({ hasText: "The host re-applied them." }).waitFor({ timeout: 30_000 });
      assert.equal(await page.inputValue("#set-branchplus-port"), String(sim.port));

      // The same session, on the restarted host: the panel follows the hub.
      await page.click(".topbar nav a:text-is('Power')");
      await page.waitForURL(`${h.base}/plugins/branchplus/`);
      await page.locator("[data-testid=channel-usb-1][data-state=off]").waitFor({
        timeout: 15_000,
      });
      assert.equal(await page.locator("[data-testid=disconnected]").count(), 0);
      assert.equal(await page.locator("[data-testid=user]").innerText(), "ada");
      assert.ok(sim.clients >= 1, "the restarted host is connected to the hub");
      assert.match(h.stdout() + h.stderr(), /restart/i, "the launcher restarted the host");
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
      await h.stop();
      await sim.close();
      await Deno.remove(dataDir, { recursive: true });
    }
  },
});

const LOOK = { name: "desktop-light", viewport: VIEWPORTS.desktop, scheme: "light" as const };
