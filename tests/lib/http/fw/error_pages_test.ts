import assert from "node:assert/strict";
import { Hono } from "hono";
import { h } from "preact";
import { ConflictError, UsageError } from "../../../../lib/error.ts";
import { type ErrorPageProps, errorPages, type Manifest } from "../../../../lib/http/fw/mod.ts";

const manifest: Manifest = {
  routes: {
    "routes/_404.tsx": {
      default: (p: ErrorPageProps) => h("h1", null, `none at ${p.url.pathname}`),
    },
    "routes/_500.tsx": { default: (p: ErrorPageProps) => h("h1", null, `${p.status}: ${p.error}`) },
  },
  islands: {},
};

function app(m: Manifest = manifest): Hono {
  const hono = new Hono();
  const pages = errorPages(m);
  hono.onError(pages.onError);
  hono.notFound(pages.notFound);
  hono.get("/busy", () => {
    throw new ConflictError("Busy <now>", { code: "busy" });
  });
  hono.get("/crash", () => {
    throw new Error("secret internals");
  });
  hono.get("/api/crash", () => {
    throw new UsageError("Bad input");
  });
  return hono;
}

const BROWSER = { headers: { Accept: "text/html,application/xhtml+xml,*/*;q=0.8" } };

Deno.test("errorPages() renders _404 and _500 for a browser, with the status", async () => {
  const missing = await app().request("/nowhere", BROWSER);
  assert.equal(missing.status, 404);
  assert.match(await missing.text(), /<h1>none at \/nowhere<\/h1>/);
  const busy = await app().request("/busy", BROWSER);
  assert.equal(busy.status, 409);
  assert.match(await busy.text(), /<h1>409: Busy &lt;now><\/h1>/);
  const crash = await app().request("/crash", BROWSER);
  assert.equal(crash.status, 500);
  const html = await crash.text();
  assert.match(html, /500: Internal server error/);
  assert.doesNotMatch(html, /secret/);
});

Deno.test("errorPages() answers JSON {error, code} to API paths and non-browser clients", async () => {
  const api = await app().request("/api/crash", BROWSER);
  assert.equal(api.status, 400);
  assert.deepEqual(await api.json(), { error: "Bad input", code: "bad_request" });
  const curl = await app().request("/busy", { headers: { Accept: "*/*" } });
  assert.deepEqual(await curl.json(), { error: "Busy <now>", code: "busy" });
  const json = await app().request("/nowhere", { headers: { Accept: "application/json" } });
  assert.deepEqual(await json.json(), { error: "Not found", code: "not_found" });
});

Deno.test("errorPages() without the page files answers JSON to browsers too", async () => {
  const res = await app({ routes: {}, islands: {} }).request("/nowhere", BROWSER);
  assert.equal(res.status, 404);
  assert.deepEqual(await res.json(), { error: "Not found", code: "not_found" });
});
