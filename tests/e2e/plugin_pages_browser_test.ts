/**
 * The plugin pages in Chromium as a person uses them, with the dashboard and every plugin in one
 * web app, the hub simulator and the virtual printer: from the dashboard to the login and back,
 * each page and settings screen checked by axe and photographed in the four looks, settings
 * changed through the screens and seen applied (the ETA algorithm, the hub connection, the
 * uptime widget), the host's messages on the field, the MQTT password replaced and cleared but
 * never shown, the restore-defaults dialog, logout, the favicon and the 404 page.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { hasChromium, launchChromium } from "./_browser.ts";
import { expectAccessible, forEachLook, type Look, shotPath } from "./_axe.ts";
import { ensureIslandsBuilt, stopServer, tempEnv } from "../_helpers.ts";
import { startHubSimulator } from "../doubles/powerhub_sim.ts";
import { createLogger } from "../../lib/log.ts";
import { createWebApp } from "../../app/mod.ts";
import { plugin as branchplus } from "../../plugins/branchplus/mod.ts";
import { createUptimePlugin } from "../../plugins/host_uptime/mod.ts";
import { createLogMonitorPlugin } from "../../plugins/logmonitor/mod.ts";
import { createTempEtaPlugin } from "../../plugins/temp_eta/mod.ts";

/**
 * A screenshot of the whole page: the viewport is stretched to the page's height first, so the
 * sticky bars sit where a reader sees them.
 */
export async function shootWhole(page: Page, name: string, look: Look): Promise<void> {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: look.viewport.width, height: Math.max(height, 300) });
  await page.screenshot({ path: shotPath(name, look) });
  await page.setViewportSize(look.viewport);
}

/**
 * Checks the page in the four looks (axe: no serious or critical violation) and photographs it,
 * whole or (`whole: false`, e.g. with a dialog open) as the viewport shows it.
 */
export async function checkLooks(page: Page, name: string, whole = true): Promise<void> {
  await forEachLook(page, async (look) => {
    await page.waitForTimeout(100);
    await expectAccessible(page, `${name} ${look.name}`);
    if (whole) await shootWhole(page, name, look);
    else await page.screenshot({ path: shotPath(name, look) });
  });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: "light" });
}

const text = async (page: Page, testid: string) =>
  (await page.locator(`[data-testid=${testid}]`).innerText()).trim();

Deno.test({
  name:
    "the plugin pages: login from the dashboard, every screen accessible in four looks, settings applied, errors on the field, logout",
  ignore: !hasChromium,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using env = await tempEnv();
    await ensureIslandsBuilt();
    const sim = await startHubSimulator({ port: 0 });
    const web = await createWebApp({
      env: env.env,
      plugins: [
        createLogMonitorPlugin({ pollMs: 50 }),
        createUptimePlugin(),
        branchplus,
        createTempEtaPlugin(),
      ],
      exit: () => {},
      logger: createLogger("test", { sink: () => {} }),
    });
    const host = web.host!;
    await host.start();
    await host.ready();
    await host.users.addUser("ada", "ada-pass", ["ADMIN"]);
    const key = await host.users.createKey("ada");
    await Deno.writeTextFile(
      `${host.paths.logDir}/app.log`,
      "2024-01-01 12:00:00,000 - app - WARNING - disk almost full\n",
    );
    // Stopped through its signal: a push socket whose browser is gone can hold Deno's graceful
    // shutdown open (denoland/deno#22387), so the end is awaited for a bounded time.
    const force = new AbortController();
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {}, signal: force.signal },
      web.fetch,
    );
    const base = `http://127.0.0.1:${server.addr.port}`;
    const browser = await launchChromium();
    const errors: string[] = [];
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      page.on("pageerror", (e) => errors.push(String(e)));
      page.on("console", (m) => /Content.Security.Policy/i.test(m.text()) && errors.push(m.text()));
      const open = async (path: string) => {
        const res = await page.goto(`${base}${path}`);
        await page.waitForSelector('html[data-hydrated="true"]', { timeout: 10_000 });
        return res;
      };

      // ---- From the dashboard to the login page and back, signed in ----
      await open("/results");
      const loginLink = page.locator("[data-testid=login-link]");
      assert.equal(await loginLink.getAttribute("href"), "/plugins/login?next=%2Fresults");
      for (const label of ["Logs", "Power", "Temperature", "Settings"]) {
        assert.equal(await page.locator(".topbar nav a", { hasText: label }).count(), 1, label);
      }
      await loginLink.click();
      await page.waitForSelector('html[data-hydrated="true"]');
      await checkLooks(page, "plugins_login");
      await page.fill("input[name=user]", "ada");
      await page.fill("input[name=pass]", "ada-pass");
      await page.click("button[type=submit]");
      await page.waitForURL(`${base}/results`);
      await page.waitForSelector('html[data-hydrated="true"]');
      assert.equal(await text(page, "user"), "ada", "the dashboard shows who is signed in");
      assert.equal(await page.locator("[data-testid=logout]").count(), 1);

      // ---- The plugin pages, each from the top bar ----
      await page.click(".topbar nav a:text-is('Logs')");
      await page.waitForURL(`${base}/plugins/logmonitor/`);
      await page.waitForSelector('html[data-hydrated="true"]');
      await checkLooks(page, "plugins_logs");
      await page.click(".topbar nav a:text-is('Home')");
      await page.waitForURL(`${base}/`);
      await open("/plugins/temp_eta/");
      await page.locator("[data-testid=algorithm]").filter({ hasText: "linear" }).waitFor();
      // Nothing heats yet: the graph says why it is empty rather than draw bare axes.
      assert.match(await text(page, "graph-empty"), /No heater has a target/);
      await checkLooks(page, "plugins_temperature");

      // ---- Temperature settings: the host's message on the field, then the algorithm applied --
      await open("/plugins/temp_eta/settings");
      await page.check("input[name=algorithm] >> nth=1");
      await page.fill("#set-temp_eta-min_rate", "5");
      await page.click("[data-testid=save]");
      const minRateError = page.locator("[data-testid=error-min_rate]");
      await minRateError.waitFor();
      assert.match(
        await minRateError.innerText(),
        /'min_rate' must be a number between 0.01 and 1.0: got 5/,
      );
      assert.equal(await page.getAttribute("#set-temp_eta-min_rate", "aria-invalid"), "true");
      assert.match(
        (await page.getAttribute("#set-temp_eta-min_rate", "aria-describedby"))!,
        /set-temp_eta-min_rate-error/,
      );
      assert.equal(await page.evaluate(() => document.activeElement?.id), "set-temp_eta-min_rate");
      assert.equal(host.settings.get("temp_eta").algorithm, "linear", "nothing saved");
      await checkLooks(page, "plugins_settings_temp_eta_error");
      await page.fill("#set-temp_eta-min_rate", "0.2");
      assert.equal(await minRateError.count(), 0, "the message goes once the value changes");
      await page.check("#set-temp_eta-show_in_navbar");
      await page.click("[data-testid=save]");
      await page.locator("[data-testid=status]").filter({ hasText: "Saved." }).waitFor();
      assert.equal(host.settings.get("temp_eta").algorithm, "exponential");
      assert.equal(host.settings.get("temp_eta").min_rate, 0.2);
      // The top-bar ETAs: shown now that a heater heats.
      const heat = await fetch(`${base}/api/printer/tool`, {
        method: "POST",
        headers: { "X-Api-Key": key, "Content-Type": "application/json" },
        body: JSON.stringify({ command: "target", targets: { tool0: 210 } }),
      });
      assert.equal(heat.status, 204);
      await page.locator("[data-testid=eta-navbar]").filter({ hasText: "Tool0" })
        .waitFor({ timeout: 15_000 });

      // The MQTT password: replaced (the host wants a user name first), shown as set, cleared.
      await page.fill("#set-temp_eta-mqtt_password", "s3cret-pw");
      await page.click("[data-testid=save]");
      await page.locator("[data-testid=error-mqtt_password]").waitFor();
      assert.match(await text(page, "error-mqtt_password"), /'mqtt_username'/);
      assert.ok(!(await text(page, "error-mqtt_password")).includes("s3cret-pw"));
      await page.fill("#set-temp_eta-mqtt_username", "eta");
      await page.click("[data-testid=save]");
      await page.locator("[data-testid=secret-state]").filter({ hasText: /^set$/ }).waitFor();
      assert.equal(host.settings.get("temp_eta").mqtt_password, "s3cret-pw");
      assert.equal(await page.inputValue("#set-temp_eta-mqtt_password"), "", "never shown");
      await open("/plugins/temp_eta/settings");
      assert.equal(await text(page, "secret-state"), "set");
      assert.ok(!(await page.content()).includes("s3cret-pw"), "not in the page");
      await checkLooks(page, "plugins_settings_temp_eta");
      await page.click("[data-testid=mqtt_password-clear]");
      assert.equal(await text(page, "secret-state"), "will be cleared");
      await page.click("[data-testid=save]");
      await page.locator("[data-testid=secret-state]").filter({ hasText: "not set" }).waitFor();
      assert.equal(host.settings.get("temp_eta").mqtt_password, "");

      await open("/plugins/temp_eta/");
      await page.locator("[data-testid=algorithm]").filter({ hasText: "exponential" }).waitFor();
      // The tool heats: its line replaces the note.
      await page.locator("[data-testid=graph-empty]").waitFor({
        state: "detached",
        timeout: 15_000,
      });
      await checkLooks(page, "plugins_temperature_heating");

      // ---- Power settings: test the hub's address, save it, the panel connects ----
      await open("/plugins/branchplus/");
      await page.locator("[data-testid=disconnected]").waitFor();
      await page.click("text=Hub and automation settings");
      await page.waitForURL(`${base}/plugins/branchplus/settings`);
      await page.waitForSelector('html[data-hydrated="true"]');
      await checkLooks(page, "plugins_settings_branchplus");
      await page.fill("#set-branchplus-host", sim.host);
      await page.fill("#set-branchplus-port", "1");
      await page.fill("#set-branchplus-path", sim.path);
      await page.click("[data-testid=test-connection]");
      await page.locator("[data-testid=probe-result]").filter({ hasText: "Cannot reach" })
        .waitFor({ timeout: 10_000 });
      await page.fill("#set-branchplus-port", String(sim.port));
      await page.click("[data-testid=test-connection]");
      await page.locator("[data-testid=probe-result]").filter({ hasText: "reports 10 channels" })
        .waitFor({ timeout: 10_000 });
      assert.equal(host.settings.get("branchplus").host, "", "testing saves nothing");
      await page.fill("#set-branchplus-failsafe_grace", "0");
      await page.click("[data-testid=save]");
      await page.locator("[data-testid=error-failsafe_grace]").waitFor();
      await page.fill("#set-branchplus-failsafe_grace", "30");
      await page.click("[data-testid=save]");
      await page.locator("[data-testid=status]").filter({ hasText: "Saved." }).waitFor();
      assert.equal(host.settings.get("branchplus").port, sim.port);
      assert.equal(host.settings.get("branchplus").failsafe_grace, 30);
      await page.click(".topbar nav a:text-is('Power')");
      await page.waitForURL(`${base}/plugins/branchplus/`);
      await page.locator("[data-testid=channel-usb-1][data-state=off]").waitFor({
        timeout: 10_000,
      });
      assert.equal(await page.locator("[data-testid=disconnected]").count(), 0);

      // The 24 V dialog: Esc closes it and the focus goes back to the button.
      const mx1 = page.locator("[data-testid=channel-mx24v-1]");
      await mx1.locator("[data-testid=mode-manual]").click();
      await page.waitForFunction(() =>
        !document.querySelector<HTMLButtonElement>(
          "[data-testid=channel-mx24v-1] [data-testid=power]",
        )?.disabled
      );
      await mx1.locator("[data-testid=power]").click();
      await page.locator("[data-testid=confirm]").waitFor();
      await checkLooks(page, "plugins_power_confirm", false);
      await page.keyboard.press("Escape");
      await page.locator("[data-testid=confirm]").waitFor({ state: "detached" });
      assert.equal(
        await page.evaluate(() =>
          document.activeElement?.closest("[data-testid=channel-mx24v-1]") !== null &&
          document.activeElement?.getAttribute("data-testid")
        ),
        "power",
      );
      assert.equal(sim.channels.mx24v?.["1"], 0, "Esc switched nothing on");
      await checkLooks(page, "plugins_power");

      // ---- Uptime settings: the top-bar widget follows ----
      await open("/plugins/host_uptime/settings");
      await checkLooks(page, "plugins_settings_host_uptime");
      const uptime = page.locator("[data-testid=uptime]");
      await uptime.filter({ hasText: "Host" }).waitFor({ timeout: 10_000 });
      await page.uncheck("#set-host_uptime-show_host_uptime");
      await page.fill("#set-host_uptime-poll_interval_seconds", "1");
      await page.click("[data-testid=save]");
      await page.locator("[data-testid=status]").filter({ hasText: "Saved." }).waitFor();
      await page.waitForFunction(
        () => !document.querySelector("[data-testid=uptime]")?.textContent?.includes("Host"),
        undefined,
        { timeout: 10_000 },
      );

      // ---- Log monitor settings, and restoring the defaults through a dialog ----
      await open("/plugins/logmonitor/settings");
      await checkLooks(page, "plugins_settings_logmonitor");
      await page.fill("#set-logmonitor-search_page_size", "5");
      await page.click("[data-testid=save]");
      await page.locator("[data-testid=error-search_page_size]").waitFor();
      await page.fill("#set-logmonitor-search_page_size", "20");
      await page.check("#set-logmonitor-regex_search_enabled");
      await page.click("[data-testid=save]");
      await page.locator("[data-testid=status]").filter({ hasText: "Saved." }).waitFor();
      assert.equal(host.settings.get("logmonitor").search_page_size, 20);
      await page.click("[data-testid=reset]");
      await page.locator("[data-testid=reset-confirm]").waitFor();
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Cancel");
      // Tab and Shift+Tab go round the dialog's buttons, never to the page behind it.
      for (const key of ["Tab", "Tab", "Tab", "Shift+Tab", "Shift+Tab", "Shift+Tab"]) {
        await page.keyboard.press(key);
        assert.ok(
          await page.evaluate(() =>
            Boolean(document.activeElement?.closest("[data-testid=reset-confirm]"))
          ),
          `${key} keeps the focus in the dialog`,
        );
      }
      await page.locator("[data-testid=reset-confirm] button", { hasText: "Cancel" }).focus();
      await page.keyboard.press("Escape");
      await page.locator("[data-testid=reset-confirm]").waitFor({ state: "detached" });
      assert.equal(
        await page.evaluate(() => document.activeElement?.textContent),
        "Restore defaults",
      );
      await page.click("[data-testid=reset]");
      await page.click("[data-testid=reset-yes]");
      await page.locator("[data-testid=status]").filter({ hasText: "Defaults restored." })
        .waitFor();
      assert.equal(host.settings.get("logmonitor").search_page_size, 50);
      assert.equal(await page.inputValue("#set-logmonitor-search_page_size"), "50");

      // ---- The favicon, an unknown page, logout ----
      const icon = await page.request.get(`${base}/favicon.ico`);
      assert.equal(icon.status(), 200);
      assert.equal(icon.headers()["content-type"], "image/x-icon");
      const missing = await page.goto(`${base}/plugins/no-such-page`);
      assert.equal(missing?.status(), 404);
      assert.match(await page.locator("main").innerText(), /Page not found/);
      await page.waitForSelector('html[data-hydrated="true"]');
      await checkLooks(page, "plugins_404");

      await open("/plugins/branchplus/");
      await page.click("[data-testid=logout]");
      await page.waitForURL(`${base}/plugins/login`);
      const after = await page.request.get(`${base}/api/settings`);
      assert.equal(after.status(), 401, "the session is over");
      await page.goto(`${base}/plugins/branchplus/`);
      assert.match(page.url(), /\/plugins\/login\?next=%2Fplugins%2Fbranchplus%2F$/);
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
      // The app first (it ends its streams and sockets), so the server's graceful stop has no
      // open answer to wait for.
      await web.close();
      await stopServer(server, force);
      await sim.close();
    }
  },
});
