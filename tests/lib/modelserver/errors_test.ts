import assert from "node:assert/strict";
import { AppError } from "../../../lib/error.ts";
import {
  atLeast,
  compareVersions,
  httpError,
  isModelUnloaded,
  parseVersion,
} from "../../../lib/modelserver/mod.ts";

Deno.test("isModelUnloaded() recognises the code and the text 'Model unloaded'", () => {
  assert.equal(isModelUnloaded(new AppError(502, "x", { code: "model_unloaded" })), true);
  assert.equal(isModelUnloaded(new Error("Cannot chat: Model unloaded.")), true);
  assert.equal(isModelUnloaded("model unloaded"), true);
  assert.equal(isModelUnloaded(new Error("Model not found")), false);
});

Deno.test("httpError() keeps the server's message and a 4xx status, and maps 5xx to 502", () => {
  const notFound = httpError(
    404,
    '{"error":{"message":"Model \\"x\\" not found","type":"invalid_request_error","code":"model_not_found"}}',
  );
  assert.deepEqual([notFound.status, notFound.message, notFound.code], [
    404,
    'Model "x" not found (HTTP 404)',
    "model_not_found",
  ]);
  const plain = httpError(500, "boom");
  assert.deepEqual([plain.status, plain.message], [502, "boom (HTTP 500)"]);
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
