import assert from "node:assert/strict";
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { AppError } from "../../../lib/error.ts";
import { createLogger } from "../../../lib/log.ts";
import { errorHandler, notFoundHandler } from "../../../lib/http/mod.ts";

function appWith(thrown: unknown, lines: string[] = []) {
  const app = new Hono();
  app.onError(errorHandler({ logger: createLogger("t", { sink: (_l, s) => lines.push(s) }) }));
  app.notFound(notFoundHandler);
  app.get("/boom", () => {
    throw thrown;
  });
  return app;
}

Deno.test("errorHandler() maps an AppError to its status and the error body", async () => {
  const res = await appWith(new AppError(409, "Busy")).request("/boom");
  assert.equal(res.status, 409);
  assert.deepEqual(await res.json(), { error: "Busy", code: "conflict" });
});

Deno.test("errorHandler() hides unexpected errors behind a logged 500", async () => {
  const lines: string[] = [];
  const res = await appWith(new Error("secret detail"), lines).request("/boom");
  assert.equal(res.status, 500);
  assert.deepEqual(await res.json(), { error: "Internal server error", code: "internal" });
  assert.ok(lines.some((l) => l.includes("secret detail")));
});

Deno.test("errorHandler() keeps the status of an HTTPException", async () => {
  const res = await appWith(new HTTPException(418, { message: "teapot" })).request("/boom");
  assert.equal(res.status, 418);
  assert.deepEqual(await res.json(), { error: "teapot", code: "error" });
});

Deno.test("notFoundHandler answers 404 with the error body", async () => {
  const res = await appWith(null).request("/nowhere");
  assert.equal(res.status, 404);
  assert.deepEqual(await res.json(), { error: "Not found", code: "not_found" });
});
