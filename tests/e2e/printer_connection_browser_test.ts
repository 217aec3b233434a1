/**
 * The printer's connection page in Chromium against a host on the virtual printer, and on
 * pseudo-terminals standing in for Marlin printers: the state, the terminal and its command box,
 * disconnecting and connecting again, each fault as the page shows it (a missing port, a printer
 * that sends only what the host cannot read, a firmware halt), a STATUS user who only watches;
 * axe and a photograph of each look.
 */
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { hasChromium, launchChromium } from "./_browser.ts";
import { expectAccessible, forEachLook, shotPath } from "./_axe.ts";
import { ensureIslandsBuilt, stopServer, tempEnv } from "../_helpers.ts";
import { openPty } from "../lib/printer/serial/_pty.ts";
import { createLogger } from "../../lib/log.ts";
import { createWebApp } from "../../app/mod.ts";

/** Checks the page in the four looks (axe) and photographs it whole in each. */
async function checkLooks(page: Page, name: string): Promise<void> {
  await forEachLook(page, async (look) => {
    await page.waitForTimeout(100);
    await expectAccessible(page, `${name} ${look.name}`);
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.setViewportSize({ width: look.viewport.width, height: Math.max(height, 300) });
    await page.screenshot({ path: shotPath(name, look) });
  });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: "light" });
}

/** A signed-in page of a new browser context, on the connection page. */
async function signIn(browser: Browser, base: string, user: string, errors: string[]) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => /Content.Security.Policy/i.test(m.text()) && errors.push(m.text()));
  await page.goto(`${base}/plugins/login?next=%2Fplugins%2Fconnection`);
  await page.waitForSelector('html[data-hydrated="true"]');
  await page.fill("input[name=user]", user);
  await page.fill("input[name=pass]", `${user}-pass`);
  await page.click("button[type=submit]");
  await page.waitForURL(`${base}/plugins/connection`);
  await page.waitForSelector('html[data-hydrated="true"]');
  await page.locator(".push-state.on").waitFor({ timeout: 10_000 });
  return page;
}

const state = (page: Page, text: string, timeout = 10_000) =>
  page.locator("[data-testid=connection-state]").filter({ hasText: new RegExp(`^${text}$`) })
    .waitFor({ timeout });

/** Connects the page's form to another path. */
async function connectTo(page: Page, path: string) {
  await page.selectOption("#connection-port", { label: "Other path…" });
  await page.fill("#connection-other-port", path);
  await page.selectOption("#connection-baudrate", "115200");
  await page.click("[data-testid=connect]");
}

Deno.test({
  name:
    "the printer page: state, terminal, disconnect and connect, each fault shown, a STATUS user only watches, accessible in four looks",
  ignore: !hasChromium,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using env = await tempEnv();
    await ensureIslandsBuilt();
    const web = await createWebApp({
      env: env.env,
      plugins: [],
      exit: () => {},
      logger: createLogger("test", { sink: () => {} }),
    });
    const host = web.host!;
    await host.start();
    await host.ready();
    await host.users.addUser("ada", "ada-pass", ["STATUS", "CONNECTION", "CONTROL"]);
    await host.users.addUser("sam", "sam-pass", ["STATUS"]);
    const force = new AbortController();
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {}, signal: force.signal },
      web.fetch,
    );
    const base = `http://127.0.0.1:${server.addr.port}`;
    const browser = await launchChromium();
    const errors: string[] = [];
    try {
      // ---- The top bar leads a visitor to the page through the login ----
      const visitor = await browser.newPage();
      await visitor.goto(`${base}/`);
      await visitor.click(".topbar nav a:text-is('Printer')");
      await visitor.waitForURL(`${base}/plugins/login?next=%2Fplugins%2Fconnection`);
      await visitor.close();

      const page = await signIn(browser, base, "ada", errors);
      await state(page, "Operational");
      assert.equal(
        await page.locator(".topbar nav a[aria-current=page]").innerText(),
        "Printer",
      );
      assert.equal(await page.locator("[data-testid=connection-port]").innerText(), "VIRTUAL");
      assert.equal(
        await page.locator("[data-testid=firmware]").innerText(),
        "localbench virtual printer",
      );
      assert.equal(await page.inputValue("#connection-port"), "VIRTUAL");
      assert.ok(await page.locator("[data-testid=connect]").isDisabled(), "already connected");

      // ---- A command and its answer in the terminal ----
      await page.fill("#terminal-command", "M105");
      await page.keyboard.press("Enter");
      const terminal = page.locator("[data-testid=terminal]");
      await terminal.locator(".term-sent", { hasText: "M105" }).waitFor();
      await terminal.locator(".term-received", { hasText: /Recv: ok T:\d/ }).waitFor();
      assert.equal(await page.inputValue("#terminal-command"), "", "the box is emptied");
      await checkLooks(page, "printer_connection");

      // ---- Disconnect, and connect again ----
      await page.click("[data-testid=disconnect]");
      await state(page, "Offline");
      assert.ok(await page.locator("[data-testid=disconnect]").isDisabled());
      assert.equal(await page.locator("[data-testid=firmware]").innerText(), "not connected");
      await page.fill("#terminal-command", "M105");
      await page.click("[data-testid=send-command]");
      await page.locator("[data-testid=command-error]").filter({ hasText: /not connected/ })
        .waitFor();
      await page.click("[data-testid=connect]");
      await state(page, "Operational");
      assert.equal(host.printer.connection().port, "VIRTUAL");

      // ---- A port that does not exist ----
      await page.click("[data-testid=disconnect]");
      await state(page, "Offline");
      await connectTo(page, "/dev/ttyUSB_localbench_none");
      await state(page, "Offline after error");
      const alert = page.locator("[data-testid=connection-error]");
      assert.match(await alert.innerText(), /No serial port at \/dev\/ttyUSB_localbench_none/);
      assert.equal(
        await page.locator("[data-testid=connection-refused]").count(),
        0,
        "the message is shown once",
      );
      await terminal.locator(".term-info", { hasText: "Offline after error" }).waitFor();
      await checkLooks(page, "printer_connection_error");

      // ---- A printer that sends only what the host cannot read (a wrong baud rate) ----
      {
        await using pty = await openPty();
        await connectTo(page, pty.path);
        await state(page, "Connecting");
        assert.ok(await page.locator("[data-testid=connect]").isDisabled(), "while connecting");
        await pty.send(new Uint8Array([0xfe, 0x80, 0xff, 0x9c, 0x0a, 0xe6, 0x86, 0x0a]));
        await state(page, "Offline after error", 20_000);
        assert.match(await alert.innerText(), /is the baud rate right\?/);
      }

      // ---- A Marlin printer that answers, then halts ----
      {
        await using pty = await openPty();
        await connectTo(page, pty.path);
        await pty.send("start\n");
        await pty.received("M110");
        await pty.send("ok\n");
        await pty.received("M115");
        await pty.send(
          "FIRMWARE_NAME:Marlin 2.1.2.4 (Jan 1 2026) PROTOCOL_VERSION:1.0 EXTRUDER_COUNT:1\n" +
            "Cap:AUTOREPORT_TEMP:0\nok\n",
        );
        await state(page, "Operational");
        assert.match(await page.locator("[data-testid=firmware]").innerText(), /Marlin 2\.1\.2\.4/);
        await pty.send("Error:Printer halted. kill() called!\n");
        await state(page, "Error");
        assert.match(await alert.innerText(), /Printer halted\. kill\(\) called!/);
        assert.match(await alert.innerText(), /Disconnect, then connect again/);
        await checkLooks(page, "printer_connection_halted");
        await page.click("[data-testid=disconnect]");
        await state(page, "Offline");
      }
      await page.selectOption("#connection-port", "VIRTUAL");
      await page.click("[data-testid=connect]");
      await state(page, "Operational");

      // ---- A STATUS user watches: no buttons, no command box ----
      const watcher = await signIn(browser, base, "sam", errors);
      await state(watcher, "Operational");
      for (
        const sel of ["[data-testid=connect]", "[data-testid=disconnect]", "#terminal-command"]
      ) {
        assert.equal(await watcher.locator(sel).count(), 0, sel);
      }
      await watcher.locator("[data-testid=terminal] .term-sent", { hasText: "M105" }).waitFor();
      // A chatty printer: the page keeps the newest lines, following the last one.
      const key = await host.users.createKey("ada");
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${base}/api/printer/command`, {
          method: "POST",
          headers: { "X-Api-Key": key, "Content-Type": "application/json" },
          body: JSON.stringify({ commands: Array.from({ length: 100 }, (_, n) => `G4 P${n}`) }),
        });
        assert.equal(res.status, 204);
      }
      await watcher.locator("[data-testid=terminal] .term-sent", { hasText: "G4 P99" }).last()
        .waitFor();
      // What another user does shows live.
      await page.click("[data-testid=disconnect]");
      await state(watcher, "Offline");
      await watcher.locator("[data-testid=terminal] .term-info", { hasText: "Disconnected" })
        .last().waitFor();
      const view = await watcher.locator("[data-testid=terminal]").evaluate((el) => ({
        lines: el.children.length,
        last: el.lastElementChild?.textContent,
        bottom: el.scrollHeight - el.scrollTop - el.clientHeight,
      }));
      assert.ok(view.lines <= 300, `${view.lines} lines in the page`);
      assert.equal(view.last, "Disconnected");
      assert.ok(view.bottom < 2, `the newest line in view (${view.bottom} px below)`);
      await checkLooks(watcher, "printer_connection_readonly");
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
      await web.close();
      await stopServer(server, force);
    }
  },
});
