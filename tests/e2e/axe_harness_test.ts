/**
 * The accessibility harness (`_axe.ts`) finds what it must on a page served under the dashboard's
 * strict CSP: low contrast and an unlabelled select are reported, a clean page passes, and the
 * looks cover both viewports and both colour schemes.
 */
import assert from "node:assert/strict";
import { hasChromium, launchChromium } from "./_browser.ts";
import { axeViolations, expectAccessible, forEachLook, LOOKS } from "./_axe.ts";
import { CONTENT_SECURITY_POLICY } from "../../lib/http/headers.ts";

const BAD = `<!doctype html><html lang="en"><head><title>bad</title>
<link rel="stylesheet" href="/bad.css"></head><body><main>
<h1>Bad</h1><p class="faint">Barely visible</p>
<select><option>a</option></select></main></body></html>`;

const GOOD = `<!doctype html><html lang="en"><head><title>good</title>
<link rel="stylesheet" href="/good.css"></head><body><main>
<h1>Good</h1><p>Readable</p>
<label for="s">Pick</label><select id="s"><option>a</option></select></main></body></html>`;

const CSS: Record<string, string> = {
  "/bad.css": "body{background:#fff}.faint{color:#bbb}",
  "/good.css": "body{background:#fff;color:#111}" +
    "@media (prefers-color-scheme: dark){body{background:#111;color:#eee}}",
};

function serve(): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const path = new URL(req.url).pathname;
    const headers = { "Content-Security-Policy": CONTENT_SECURITY_POLICY };
    if (CSS[path]) {
      return new Response(CSS[path], { headers: { ...headers, "Content-Type": "text/css" } });
    }
    const html = path === "/bad" ? BAD : GOOD;
    return new Response(html, { headers: { ...headers, "Content-Type": "text/html" } });
  });
}

Deno.test({
  name: "the axe harness reports low contrast and an unlabelled select under the strict CSP",
  ignore: !hasChromium,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const server = serve();
    const base = `http://127.0.0.1:${server.addr.port}`;
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(`${base}/bad`);
      const ids = (await axeViolations(page)).map((v) => v.id).sort();
      assert.deepEqual(ids, ["color-contrast", "select-name"]);
      await assert.rejects(expectAccessible(page, "bad"), /color-contrast \(serious\)/);
      const looks: string[] = [];
      await forEachLook(page, async (look) => {
        await page.goto(`${base}/good`);
        await expectAccessible(page, `good ${look.name}`);
        const dark = await page.evaluate(() => matchMedia("(prefers-color-scheme: dark)").matches);
        assert.equal(dark, look.scheme === "dark");
        assert.equal(page.viewportSize()?.width, look.viewport.width);
        looks.push(look.name);
      });
      assert.deepEqual(looks, LOOKS.map((l) => l.name));
      assert.deepEqual(looks, ["desktop-light", "desktop-dark", "mobile-light", "mobile-dark"]);
    } finally {
      await browser.close();
      await server.shutdown();
    }
  },
});
