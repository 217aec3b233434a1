/**
 * `sameOrigin()` against Hono's `csrf()`: the rows where they differ are the measured reason
 * docs/decisions.md gives for keeping the hand-written check.
 */
import assert from "node:assert/strict";
import { Hono, type MiddlewareHandler } from "hono";
import { csrf } from "hono/csrf";
import { errorHandler } from "../../../lib/http/error_handler.ts";
import { sameOrigin } from "../../../lib/http/security.ts";

const JSON_TYPE = { "Content-Type": "application/json" };
/** [what, request headers, sameOrigin()'s status, csrf()'s status] for a POST to localhost:8080. */
const CASES: [string, Record<string, string>, number, number][] = [
  ["command line, no body", {}, 200, 403],
  ["command line, JSON", JSON_TYPE, 200, 200],
  [
    "same origin, form",
    { Origin: "http://localhost:8080", "Content-Type": "text/plain" },
    200,
    200,
  ],
  ["other port, JSON", { Origin: "http://localhost:9999", ...JSON_TYPE }, 403, 200],
  ["other scheme, no body", { Origin: "https://localhost:8080" }, 403, 403],
  ["Origin: null, form", { Origin: "null", "Content-Type": "text/plain" }, 403, 403],
  ["cross-site fetch, JSON", { "Sec-Fetch-Site": "cross-site", ...JSON_TYPE }, 403, 200],
  [
    "same-origin fetch, foreign Origin",
    {
      "Sec-Fetch-Site": "same-origin",
      Origin: "http://evil.example",
    },
    403,
    200,
  ],
];

async function status(guard: MiddlewareHandler, headers: Record<string, string>) {
  const app = new Hono().use("*", guard).post("/", (c) => c.text("done"));
  app.onError(errorHandler());
  const res = await app.request("http://localhost:8080/", { method: "POST", headers });
  await res.body?.cancel();
  return res.status;
}

Deno.test("sameOrigin() checks every state-changing request's Origin, where hono/csrf differs", async () => {
  for (const [what, headers, ours, hono] of CASES) {
    assert.equal(await status(sameOrigin(), headers), ours, `sameOrigin(): ${what}`);
    assert.equal(await status(csrf(), headers), hono, `csrf(): ${what}`);
  }
  const get = await new Hono().use("*", sameOrigin()).get("/", (c) => c.text("ok"))
    .request("/", { headers: { Origin: "http://evil.example" } });
  assert.equal(get.status, 200, "a read is not state-changing");
});
