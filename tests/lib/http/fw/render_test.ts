import assert from "node:assert/strict";
import { Hono } from "hono";
import { h } from "preact";
import { registerIslands, renderDocument, serveAssets } from "../../../../lib/http/fw/mod.ts";
import type { AppProps, LayoutProps } from "../../../../lib/http/fw/mod.ts";

Deno.test("serveAssets() serves files with their type and never leaves the folder", async () => {
  const root = await Deno.makeTempDir();
  const outside = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${root}/sub`);
    await Deno.writeTextFile(`${root}/sub/a.js`, "export {}");
    await Deno.writeTextFile(`${root}/.secret`, "x");
    await Deno.writeTextFile(`${outside}/x.txt`, "outside");
    const app = new Hono();
    app.use("*", serveAssets({ prefix: "/static", root }));
    app.get("*", (c) => c.text("fallthrough", 404));
    const ok = await app.request("/static/sub/a.js");
    assert.equal(ok.status, 200);
    assert.match(ok.headers.get("content-type")!, /text\/javascript/);
    assert.equal(await ok.text(), "export {}");
    for (
      const p of [
        "/static/..%2F" + outside.split("/").pop() + "%2Fx.txt",
        "/static/.secret",
        "/static/sub",
        "/static/%00",
        "/static/%E0%A4%A",
        "/staticsub/a.js",
      ]
    ) {
      const res = await app.request(p);
      assert.equal(res.status, 404, p);
      assert.ok(!(await res.text()).includes("outside"));
    }
    assert.equal(await (await app.request("/other")).text(), "fallthrough");
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

/** A minimal document shell for the tests. */
function Shell(props: AppProps) {
  return h(
    "html",
    { lang: "en" },
    h("head", null, h("title", null, props.title)),
    h("body", null, h(props.Component, null)),
  );
}

const doc = { url: new URL("http://localhost/"), state: {}, bootScript: "/_islands/boot.js" };

Deno.test("renderDocument() marks registered islands with their props and adds the boot script", () => {
  const Hello = (p: { who: string }) => h("b", null, `hi ${p.who}`);
  registerIslands({ Hello });
  const html = renderDocument({
    ...doc,
    page: () => h(Hello, { who: "<x>" }),
    props: {},
    title: "T & U",
    app: Shell,
  });
  assert.ok(html.startsWith('<!DOCTYPE html><html lang="en">'));
  assert.ok(html.includes("<title>T &amp; U</title>"));
  assert.ok(html.includes('data-island="Hello"'));
  assert.ok(html.includes('data-props="{&quot;who&quot;:&quot;&lt;x>&quot;}"'));
  assert.ok(html.includes("<b>hi &lt;x></b>"));
  assert.ok(html.includes('<script type="module" src="/_islands/boot.js"></script></body>'));
});

Deno.test("renderDocument() adds no boot script to a page without islands", () => {
  const html = renderDocument({ ...doc, page: () => h("p", null, "plain"), props: {}, title: "T" });
  assert.ok(html.includes("<p>plain</p>"));
  assert.ok(!html.includes("<script"));
});

Deno.test("renderDocument() nests the layouts outermost first inside the app shell", () => {
  const layout = (name: string) => (p: LayoutProps) =>
    h("div", { class: name }, h(p.Component, null));
  const html = renderDocument({
    ...doc,
    page: (p: { data: string }) => h("p", null, p.data),
    props: { data: "page" },
    layouts: [layout("outer"), layout("inner")],
    app: Shell,
    title: "T",
  });
  assert.ok(html.includes('<body><div class="outer"><div class="inner"><p>page</p></div></div>'));
});
