/**
 * The dashboard's answers leave compressed (pages, JSON, bundles, the stylesheet) with the
 * security headers kept, while the event stream is sent as it is, event by event.
 */
import assert from "node:assert/strict";
import { testDashboard } from "./_dashboard.ts";
import { seedStore } from "./_seed.ts";

const BROWSER = { "Accept-Encoding": "gzip, deflate, br" };

async function inflate(res: Response): Promise<string> {
  const enc = res.headers.get("Content-Encoding");
  const format = enc === "gzip" || enc === "deflate" ? enc : null;
  if (!format) return await res.text();
  return await new Response(
    res.body!.pipeThrough(new DecompressionStream(format)),
  ).text();
}

Deno.test("the dashboard compresses pages, JSON, bundles and the stylesheet", async () => {
  await using d = await testDashboard();
  seedStore(d.web.store);
  for (const path of ["/", "/results", "/api/results", "/api/dashboard/stats", "/styles.css"]) {
    const res = await d.request(path, { headers: BROWSER });
    assert.equal(res.status, 200, path);
    assert.equal(res.headers.get("Content-Encoding"), "gzip", path);
    assert.match(res.headers.get("Vary") ?? "", /Accept-Encoding/, path);
    assert.ok(res.headers.get("Content-Security-Policy"), `${path} keeps its CSP`);
    const text = await inflate(res);
    assert.ok(text.length > 1024, path);
  }
  const home = await inflate(await d.request("/", { headers: { "Accept-Encoding": "gzip" } }));
  assert.match(home, /<h1>Overview<\/h1>/);
  const boot = await d.request("/_islands/boot.js", { headers: { "Accept-Encoding": "gzip" } });
  assert.equal(boot.headers.get("Cache-Control"), "no-cache");
  assert.match(boot.headers.get("ETag") ?? "", /^W\//);
  // A revalidation with the weak tag still answers 304.
  const again = await d.request("/_islands/boot.js", {
    headers: { "Accept-Encoding": "gzip", "If-None-Match": boot.headers.get("ETag")! },
  });
  await boot.body?.cancel();
  assert.equal(again.status, 304);
});

Deno.test("the dashboard sends the event stream uncompressed and unbuffered", async () => {
  await using d = await testDashboard();
  const res = await d.request("/api/benchmark/events", { headers: BROWSER });
  assert.equal(res.headers.get("Content-Encoding"), null);
  const reader = res.body!.getReader();
  let text = "";
  while (!text.includes('"type":"status"')) {
    const { value, done } = await reader.read();
    assert.ok(!done);
    text += new TextDecoder().decode(value);
  }
  await reader.cancel();
});
