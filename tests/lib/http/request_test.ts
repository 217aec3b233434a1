import assert from "node:assert/strict";
import { Hono } from "hono";
import { attachment, clientAddress, errorHandler, readJsonObject } from "../../../lib/http/mod.ts";

Deno.test("clientAddress() reads the socket address and falls back to unknown", async () => {
  const app = new Hono().get("/", (c) => c.text(clientAddress(c)));
  assert.equal(await (await app.request("/")).text(), "unknown");
  const env = { remoteAddr: { hostname: "10.0.0.7" } };
  assert.equal(await (await app.request("/", {}, env)).text(), "10.0.0.7");
});

Deno.test("readJsonObject() accepts an empty body and rejects non-objects with 400", async () => {
  const app = new Hono().post("/", async (c) => c.json(await readJsonObject(c)));
  app.onError(errorHandler());
  assert.deepEqual(await (await app.request("/", { method: "POST" })).json(), {});
  for (const body of ["[1]", "3", "{bad"]) {
    const res = await app.request("/", { method: "POST", body });
    assert.equal(res.status, 400, body);
  }
});

Deno.test("attachment() quotes plain names and encodes others", () => {
  assert.equal(attachment("a.log"), 'attachment; filename="a.log"');
  assert.equal(attachment("ä.log"), "attachment; filename*=UTF-8''%C3%A4.log");
});
