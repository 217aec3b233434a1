import assert from "node:assert/strict";
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  RateLimitedError,
  SetupError,
  StorageError,
  TooLargeError,
  UnauthenticatedError,
  UnavailableError,
  UnprocessableError,
  UnreachableError,
  UpstreamError,
  UpstreamTimeoutError,
  UsageError,
} from "../../../lib/error.ts";
import { createLogger } from "../../../lib/log.ts";
import { errorHandler, notFoundHandler } from "../../../lib/http/mod.ts";
import { statusOf } from "../../../lib/http/error_handler.ts";
import { httpError } from "../../../lib/modelserver/errors.ts";

function appWith(thrown: unknown, lines: string[] = []) {
  const app = new Hono();
  app.onError(errorHandler({ logger: createLogger("t", { sink: (_l, s) => lines.push(s) }) }));
  app.notFound(notFoundHandler);
  app.get("/boom", () => {
    throw thrown;
  });
  return app;
}

async function answer(thrown: unknown, lines: string[] = []): Promise<[number, unknown]> {
  const res = await appWith(thrown, lines).request("/boom");
  return [res.status, await res.json()];
}

Deno.test("errorHandler() maps an error class to its status and the error body with its code", async () => {
  assert.deepEqual(await answer(new ConflictError("Busy", { code: "busy" })), [
    409,
    { error: "Busy", code: "busy" },
  ]);
  assert.deepEqual(await answer(new NotFoundError("Cannot find 'x'")), [
    404,
    { error: "Cannot find 'x'", code: "not_found" },
  ]);
});

Deno.test("statusOf() gives every error class of lib/error.ts its own status", () => {
  const cases: [Error, number, string][] = [
    [new UsageError("x"), 400, "bad_request"],
    [new UnauthenticatedError("x"), 401, "unauthorized"],
    [new ForbiddenError("x"), 403, "forbidden"],
    [new NotFoundError("x"), 404, "not_found"],
    [new ConflictError("x"), 409, "conflict"],
    [new TooLargeError("x"), 413, "payload_too_large"],
    [new UnprocessableError("x"), 422, "unprocessable"],
    [new RateLimitedError("x"), 429, "too_many_requests"],
    [new SetupError("x"), 500, "setup"],
    [new StorageError("x"), 500, "storage"],
    [new UpstreamError("x"), 502, "bad_gateway"],
    [new UnreachableError("x"), 503, "unreachable"],
    [new UnavailableError("x"), 503, "unavailable"],
    [new UpstreamTimeoutError("x"), 504, "timeout"],
    [new TypeError("x"), 500, ""],
  ];
  for (const [err, status, code] of cases) {
    assert.equal(statusOf(err), status, err.name);
    if (code) assert.equal((err as { code?: string }).code, code, err.name);
  }
});

Deno.test("errorHandler() sends Retry-After for a rate limit or a busy service that names one", async () => {
  for (
    const err of [
      new RateLimitedError("slow down", { retryAfterSeconds: 60 }),
      new UnavailableError("busy", { retryAfterSeconds: 0.5 }),
    ]
  ) {
    const res = await appWith(err).request("/boom");
    await res.body?.cancel();
    assert.equal(res.headers.get("Retry-After"), err instanceof RateLimitedError ? "60" : "1");
  }
  const res = await appWith(new UnavailableError("shutting down")).request("/boom");
  await res.body?.cancel();
  assert.equal(res.headers.get("Retry-After"), null);
});

Deno.test("errorHandler() answers a UsageError with 400 and the upstream errors with 502/503/504", async () => {
  assert.deepEqual(await answer(new UsageError("Unknown argument 'x'")), [
    400,
    { error: "Unknown argument 'x'", code: "bad_request" },
  ]);
  // A model server answering 400 is a bad gateway for our caller, never their bad request.
  const lines: string[] = [];
  assert.deepEqual(await answer(httpError(400, '{"error":"context too long"}'), lines), [
    502,
    { error: "context too long (HTTP 400)", code: "upstream" },
  ]);
  assert.ok(lines.some((l) => l.includes("context too long")), "a 5xx is logged");
  assert.deepEqual(
    await answer(new UnreachableError("Cannot reach the model server", { code: "x" })),
    [503, { error: "Cannot reach the model server", code: "x" }],
  );
});

Deno.test("errorHandler() hides unexpected errors behind a logged 500", async () => {
  const lines: string[] = [];
  assert.deepEqual(await answer(new Error("secret detail"), lines), [
    500,
    { error: "Internal server error", code: "internal" },
  ]);
  assert.ok(lines.some((l) => l.includes("secret detail")));
});

Deno.test("errorHandler() treats a stray SyntaxError as a bug (500), not as a bad body", async () => {
  const lines: string[] = [];
  assert.deepEqual(await answer(new SyntaxError("Unexpected token in JSON"), lines), [
    500,
    { error: "Internal server error", code: "internal" },
  ]);
  assert.ok(lines.some((l) => l.includes("Unexpected token")));
});

Deno.test("errorHandler() keeps the status of an HTTPException", async () => {
  assert.deepEqual(await answer(new HTTPException(418, { message: "teapot" })), [
    418,
    { error: "teapot", code: "error" },
  ]);
});

Deno.test("notFoundHandler answers 404 with the error body", async () => {
  const res = await appWith(null).request("/nowhere");
  assert.equal(res.status, 404);
  assert.deepEqual(await res.json(), { error: "Not found", code: "not_found" });
});
