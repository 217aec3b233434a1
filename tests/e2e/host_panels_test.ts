/**
 * Browser test of the power and temperature panels (Chromium through playwright-core): the
 * branch controller against the hub simulator (manual switching, the 24 V confirmation, label and
 * rule edits, the disconnected banner) and the Temperature ETA panel following the sped-up virtual
 * printer (heating ETA, navbar and sidebar elements, settings pushes, the target-reached alert).
 */
import assert from "node:assert/strict";
import { chromium, type Page } from "playwright-core";
import { createHost } from "../../lib/host/mod.ts";
import { plugin as branchplus } from "../../plugins/branchplus/mod.ts";
import type { ChannelConfig } from "../../plugins/branchplus/channel_config.ts";
import { createUptimePlugin } from "../../plugins/host_uptime/mod.ts";
import { createTempEtaPlugin } from "../../plugins/temp_eta/mod.ts";
import { serveHostApp } from "../_web.ts";
import { startHubSimulator } from "../doubles/powerhub_sim.ts";
import { json, startTestHost } from "../lib/host/_helpers.ts";
import { waitFor } from "../_helpers.ts";

const CHROMIUM = "/usr/bin/chromium";
const ARTIFACTS = new URL("../../test-artifacts/", import.meta.url);

async function login(
  page: Page,
  base: string,
  path: string,
  [user, pass] = ["operator", "operator-pass"],
): Promise<void> {
  await page.goto(`${base}${path}`);
  assert.match(page.url(), /\/plugins\/login\?next=/);
  await page.fill("input[name=user]", user);
  await page.fill("input[name=pass]", pass);
  await page.click("button[type=submit]");
  await page.waitForURL(`${base}${path}`);
}

Deno.test({
  name:
    "the power panel switches channels through the hub with a 24 V confirmation and a disconnected banner, and the ETA panel follows a heating tool",
  ignore: !(await Deno.stat(CHROMIUM).then(() => true).catch(() => false)),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await Deno.mkdir(ARTIFACTS, { recursive: true });
    const dir = await Deno.makeTempDir({ prefix: "lb_panels_" });
    const sim = await startHubSimulator({ port: 0 });
    const host = createHost({
      plugins: [
        branchplus,
        createTempEtaPlugin(),
        createUptimePlugin({ readProc: () => Promise.resolve("93784.2 10.0\n") }),
      ],
      dataDir: dir,
      printerSpeed: 12,
    });
    const served = await serveHostApp(host);
    await host.users.addUser("operator", "operator-pass", ["STATUS", "CONTROL"]);
    const key = await host.users.createKey("operator");
    await host.settings.updateMany({
      branchplus: { host: sim.host, port: sim.port, path: sim.path, min_switch_interval: 0 },
      temp_eta: { heating_sound_enabled: true },
    });
    const channel = (kind: string, id: number) =>
      (host.settings.get("branchplus").channels as ChannelConfig[])
        .find((c) => c.kind === kind && c.id === id)!;
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
      ],
    });
    const errors: string[] = [];
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      page.on("pageerror", (e) => errors.push(String(e)));
      // The strict CSP (no inline script or style) must not block anything the pages do.
      page.on("console", (m) => /Content.Security.Policy/i.test(m.text()) && errors.push(m.text()));
      const base = `http://127.0.0.1:${served.port}`;

      // ---- Power panel ----
      await login(page, base, "/plugins/branchplus/");
      const usb2 = page.locator("[data-testid=channel-usb-2]");
      await page.locator("[data-testid=channel-usb-2][data-state=off]").waitFor({
        timeout: 10_000,
      });
      assert.equal(await usb2.locator("[data-testid=power]").isDisabled(), true, "auto mode");
      await usb2.locator("[data-testid=mode-manual]").click();
      await waitFor(() => channel("usb", 2).mode === "manual", "usb 2 in manual mode");
      const usb2Power = usb2.locator("[data-testid=power]");
      await page.waitForFunction(() =>
        !document.querySelector<HTMLButtonElement>(
          "[data-testid=channel-usb-2] [data-testid=power]",
        )?.disabled
      );
      await usb2Power.click();
      await waitFor(() => sim.channels.usb?.["2"] === 1, "the hub switching usb 2 on");
      await page.locator("[data-testid=channel-usb-2][data-state=on]").waitFor({ timeout: 10_000 });
      assert.equal(await usb2.locator("[data-testid=state]").innerText(), "ON");
      assert.equal(await usb2Power.innerText(), "Switch off");
      // The hub's broadcast may reach the page before the command's save completes.
      await waitFor(() => channel("usb", 2).manual_on === true, "usb 2 remembered on");

      // A 24 V channel asks first; cancel sends nothing, confirm switches.
      const mx1 = page.locator("[data-testid=channel-mx24v-1]");
      await mx1.locator("[data-testid=mode-manual]").click();
      await waitFor(() => channel("mx24v", 1).mode === "manual", "mx24v 1 in manual mode");
      await page.waitForFunction(() =>
        !document.querySelector<HTMLButtonElement>(
          "[data-testid=channel-mx24v-1] [data-testid=power]",
        )?.disabled
      );
      const sent = sim.commands.length;
      await mx1.locator("[data-testid=power]").click();
      const dialog = page.locator("[data-testid=confirm]");
      await dialog.waitFor({ timeout: 5000 });
      assert.match(await dialog.innerText(), /24 V/);
      // A modal dialog: Cancel has the focus, Tab stays inside, Esc closes it and the focus
      // goes back to the button that opened it.
      const focused = () =>
        page.evaluate(() => document.activeElement?.getAttribute("data-testid"));
      assert.equal(await focused(), "confirm-no");
      for (const key of ["Tab", "Tab", "Tab", "Shift+Tab", "Shift+Tab"]) {
        await page.keyboard.press(key);
        assert.ok(
          await page.evaluate(() => !!document.activeElement?.closest("[data-testid=confirm]")),
          `the focus stays in the dialog after ${key}`,
        );
      }
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached", timeout: 5000 });
      assert.equal(
        await page.evaluate(() =>
          document.activeElement?.closest("[data-testid=channel-mx24v-1]") !== null &&
          document.activeElement?.getAttribute("data-testid")
        ),
        "power",
      );
      await mx1.locator("[data-testid=power]").click();
      await dialog.waitFor({ timeout: 5000 });
      await page.click("[data-testid=confirm-no]");
      await dialog.waitFor({ state: "detached", timeout: 5000 });
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(sim.commands.length, sent, "cancel sends no command");
      assert.equal(sim.channels.mx24v?.["1"], 0);
      await mx1.locator("[data-testid=power]").click();
      await dialog.waitFor({ timeout: 5000 });
      await page.click("[data-testid=confirm-yes]");
      await waitFor(() => sim.channels.mx24v?.["1"] === 1, "the hub switching mx24v 1 on");
      await page.locator("[data-testid=channel-mx24v-1][data-state=on]").waitFor({
        timeout: 10_000,
      });

      // Label and rule edits are stored.
      const label = usb2.locator("[data-testid=label]");
      await label.fill("Printer lamp");
      await label.press("Enter");
      await waitFor(() => channel("usb", 2).label === "Printer lamp", "the label stored");
      await page.locator("[data-testid=chips]").filter({ hasText: "Printer lamp" }).waitFor({
        timeout: 5000,
      });
      await page.locator("[data-testid=channel-usb-3] [data-testid=rule-printing]")
        .selectOption("on");
      await waitFor(() => channel("usb", 3).rules.printing === "on", "the rule stored");
      await page.locator("[data-testid=channel-usb-3] [data-testid=failsafe]").selectOption("hold");
      await waitFor(() => channel("usb", 3).failsafe === "hold", "the failsafe stored");

      // A button on the hub itself reaches the card through the state push.
      sim.setChannel("usb", 2, false);
      await page.locator("[data-testid=channel-usb-2][data-state=off]").waitFor({
        timeout: 10_000,
      });
      await usb2Power.click();
      await waitFor(() => sim.channels.usb?.["2"] === 1, "usb 2 on again");
      await page.locator("[data-testid=channel-usb-2][data-state=on]").waitFor({ timeout: 10_000 });

      // The hub goes away: banner, unknown states, buttons disabled; it comes back: banner gone.
      assert.equal(await page.locator("[data-testid=disconnected]").count(), 0);
      sim.setDropConnections(true);
      await page.locator("[data-testid=disconnected]").waitFor({ timeout: 10_000 });
      await page.locator("[data-testid=channel-usb-2][data-state=unknown]").waitFor({
        timeout: 5000,
      });
      assert.equal(await usb2Power.isDisabled(), true);
      await page.screenshot({
        path: new URL("host_power_disconnected.png", ARTIFACTS).pathname,
        fullPage: true,
      });
      sim.setDropConnections(false);
      await page.locator("[data-testid=disconnected]").waitFor({
        state: "detached",
        timeout: 15_000,
      });
      await page.locator("[data-testid=channel-usb-2][data-state=on]").waitFor({ timeout: 10_000 });
      await page.screenshot({
        path: new URL("host_power.png", ARTIFACTS).pathname,
        fullPage: true,
      });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: new URL("host_power_phone.png", ARTIFACTS).pathname });
      await page.setViewportSize({ width: 1280, height: 900 });

      // A user who may only watch sees the same panel with every control disabled, and why.
      await host.users.addUser("watcher", "watcher-pass", ["STATUS"]);
      const watcher = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      try {
        await login(watcher, base, "/plugins/branchplus/", ["watcher", "watcher-pass"]);
        await watcher.locator("[data-testid=channel-usb-2][data-state=on]").waitFor({
          timeout: 10_000,
        });
        assert.match(
          await watcher.locator("[data-testid=read-only]").innerText(),
          /needs the CONTROL permission/,
        );
        const card = watcher.locator("[data-testid=channel-usb-2]");
        for (const control of ["power", "mode-auto", "mode-manual", "label"]) {
          assert.equal(await card.locator(`[data-testid=${control}]`).isDisabled(), true, control);
        }
        await watcher.screenshot({
          path: new URL("host_power_watcher.png", ARTIFACTS).pathname,
        });
      } finally {
        await watcher.close();
      }

      // ---- Temperature ETA panel ----
      await page.goto(`${base}/plugins/temp_eta/`);
      await page.locator("[data-testid=heater-tool0]").waitFor({ timeout: 10_000 });
      const navbar = page.locator("[data-testid=eta-navbar]");
      const sidebar = page.locator("[data-testid=eta-sidebar]");
      await sidebar.waitFor({ timeout: 5000 });
      await host.settings.updateMany({ temp_eta: { show_in_navbar: true, show_percentage: true } });
      const res = await fetch(`${base}/api/printer/tool`, {
        method: "POST",
        headers: { "X-Api-Key": key, "content-type": "application/json" },
        body: JSON.stringify({ command: "target", targets: { tool0: 210 } }),
      });
      assert.equal(res.status, 204, await res.text());
      const tool0 = page.locator("[data-testid=heater-tool0]");
      await page.locator("[data-testid=heater-tool0][data-state=heating]").waitFor({
        timeout: 15_000,
      });
      const etaOf = async () => await tool0.locator("[data-testid=eta]").innerText();
      const first = await etaOf();
      assert.match(first, /^\d+(\.\d)?[smh]$/);
      await waitFor(async () => (await etaOf()) !== first, {
        what: "the ETA to update",
        intervalMs: 100,
      });
      assert.match(await tool0.locator("[data-testid=rate]").innerText(), /^\+\d+\.\d\d°C\/s$/);
      await tool0.locator("[data-testid=percentage]").waitFor({ timeout: 5000 });
      await navbar.filter({ hasText: "Tool0" }).waitFor({ state: "visible", timeout: 5000 });
      assert.match(await sidebar.innerText(), /Tool0/);
      await page.locator("[data-testid=eta-graph] canvas[data-drawn=true]").waitFor({
        timeout: 5000,
      });
      await new Promise((r) => setTimeout(r, 1500));
      await page.screenshot({
        path: new URL("host_temperature.png", ARTIFACTS).pathname,
        fullPage: true,
      });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: new URL("host_temperature_phone.png", ARTIFACTS).pathname });
      await page.setViewportSize({ width: 1280, height: 900 });

      // Reaching the target: an in-page notification and the heating sound.
      await page.locator("[data-testid=toast]").filter({ hasText: "Tool0: reached" }).waitFor({
        timeout: 30_000,
      });
      assert.match(
        await page.locator("[data-testid=eta-audio]").getAttribute("data-played") ?? "",
        /\/plugin\/temp_eta\/static\/sounds\/heating_done\.wav$/,
      );
      await navbar.waitFor({ state: "hidden", timeout: 10_000 });

      // Settings pushes hide the sidebar and the graph.
      await host.settings.updateMany({
        temp_eta: { show_in_sidebar: false, show_in_graph: false },
      });
      await sidebar.waitFor({ state: "detached", timeout: 5000 });
      await page.locator("[data-testid=eta-graph]").waitFor({ state: "detached", timeout: 5000 });
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
      await served.shutdown();
      await sim.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("the power and temperature pages need a session and render their islands with the CSRF token", async () => {
  const t = await startTestHost({ plugins: [branchplus, createTempEtaPlugin()], pages: true });
  try {
    for (const path of ["/plugins/branchplus/", "/plugins/temp_eta/"]) {
      const res = await t.request(path, { key: null });
      assert.equal(res.status, 302);
      assert.equal(res.headers.get("location"), `/plugins/login?next=${encodeURIComponent(path)}`);
    }
    const login = await t.request("/api/login", {
      ...json("POST", { user: "status", pass: "STATUS-pass" }, { Origin: "http://localhost" }),
      key: null,
    });
    const { csrf_token } = await login.json();
    const cookie = login.headers.get("set-cookie")!.split(";")[0]!;
    const power =
      await (await t.request("/plugins/branchplus/", { key: null, headers: { Cookie: cookie } }))
        .text();
    assert.ok(power.includes('data-island="branchplus/PowerPanel"') && power.includes(csrf_token));
    assert.ok(power.includes('src="/_islands/boot.js"'));
    assert.ok(power.includes('href="/plugins/temp_eta/"'), "navigation");
    const temp = await (
      await t.request("/plugins/temp_eta/", { key: null, headers: { Cookie: cookie } })
    ).text();
    assert.ok(temp.includes('data-island="temp_eta/TempEtaPanel"'));
    assert.ok(temp.includes('data-island="temp_eta/TempEtaNavbar"'));
    assert.ok(temp.includes('src="/_islands/boot.js"'));
  } finally {
    await t.close();
  }
});
