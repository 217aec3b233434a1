import assert from "node:assert/strict";
import { statusOf } from "../../../lib/http/error_handler.ts";
import { exitCodeOf, UpstreamError } from "../../../lib/error.ts";
import {
  atLeast,
  compareVersions,
  httpError,
  isModelUnloaded,
  ModelUnloadedError,
  parseVersion,
} from "../../../lib/modelserver/mod.ts";

Deno.test("isModelUnloaded() recognises a ModelUnloadedError and the text 'Model unloaded'", () => {
  assert.equal(isModelUnloaded(new ModelUnloadedError("x")), true);
  assert.equal(isModelUnloaded(new UpstreamError("x", { code: "model_unloaded" })), false);
  assert.equal(isModelUnloaded(new Error("Cannot chat: Model unloaded.")), true);
  assert.equal(isModelUnloaded("model unloaded"), true);
  assert.equal(isModelUnloaded(new Error("Model not found")), false);
});

Deno.test("httpError() keeps the server's message and status as upstreamStatus, and is a 502", () => {
  const notFound = httpError(
    404,
    '{"error":{"message":"Model \\"x\\" not found","type":"invalid_request_error","code":"model_not_found"}}',
  );
  assert.deepEqual(
    [statusOf(notFound), notFound.upstreamStatus, notFound.message, notFound.code],
    [502, 404, 'Model "x" not found (HTTP 404)', "model_not_found"],
  );
  // The server's 400 is not the user's mistake: 502 on the web, exit code 1 on the command line.
  const refused = httpError(400, '{"error":"n_ctx too large"}');
  assert.ok(refused instanceof UpstreamError);
  assert.deepEqual([statusOf(refused), refused.upstreamStatus, exitCodeOf(refused)], [502, 400, 1]);
  const plain = httpError(500, "boom");
  assert.deepEqual([statusOf(plain), plain.message], [502, "boom (HTTP 500)"]);
  const unloaded = httpError(500, '{"error":"Model unloaded"}');
  assert.equal(unloaded.code, "model_unloaded");
  assert.equal(httpError(503, "").message, "no message (HTTP 503)");
});

Deno.test("compareVersions() compares numerically and ignores prefixes and suffixes", () => {
  assert.ok(compareVersions("0.4.0", "0.3.31") > 0);
  assert.ok(compareVersions("0.10.0", "0.9.9") > 0);
  assert.ok(compareVersions("0.3.9", "0.4.0") < 0);
  assert.equal(compareVersions("v0.4", "0.4.0"), 0);
  assert.equal(compareVersions("0.4.0-beta+2", "0.4.0"), 0);
  assert.equal(atLeast("0.4.1", "0.4.0"), true);
  assert.equal(atLeast(null, "0.4.0"), false);
});

Deno.test("parseVersion() finds X.Y.Z in command output", () => {
  assert.equal(parseVersion("lms - LM Studio CLI - v0.4.1\nCLI commit: 1a2b3c4"), "0.4.1");
  assert.equal(parseVersion("version 1.2"), "1.2.0");
  assert.equal(parseVersion("CLI commit: abc"), null);
});

Deno.test("httpError() never puts a web page or a long body into the message", () => {
  const page = httpError(404, "<!DOCTYPE html>\n<html><body><h1>Not Found</h1></body></html>");
  assert.equal(
    page.message,
    "the server answered with a web page, not a model server's reply (HTTP 404)",
  );
  const long = httpError(500, "x".repeat(1000));
  assert.ok(long.message.length < 220);
});
