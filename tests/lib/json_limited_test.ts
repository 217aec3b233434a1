import assert from "node:assert/strict";
import { jsonDepth, JsonDepthError, parseJsonLimited } from "../../lib/json_limited.ts";

Deno.test("jsonDepth() counts brackets outside strings only, escapes included", () => {
  assert.equal(jsonDepth("1"), 0);
  assert.equal(jsonDepth('{"a": [1, {"b": []}]}'), 4);
  assert.equal(jsonDepth('["[[[\\"[[["]'), 1);
  assert.equal(jsonDepth("[".repeat(1_000_000), 10), 11, "stops counting past the limit");
});

Deno.test("parseJsonLimited() refuses deep nesting before parsing and parses the rest", () => {
  assert.deepEqual(parseJsonLimited('{"a": [1]}', 2), { a: [1] });
  assert.throws(() => parseJsonLimited("[[[]]]", 2), JsonDepthError);
  assert.throws(() => parseJsonLimited("[".repeat(5_000_000) + "]".repeat(5_000_000)), {
    name: "JsonDepthError",
    message: "Cannot read JSON nested deeper than 64 levels",
  });
  assert.throws(() => parseJsonLimited("{nope"), SyntaxError);
});
