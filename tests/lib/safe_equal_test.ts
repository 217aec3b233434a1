import assert from "node:assert/strict";
import { safeEqual } from "../../lib/safe_equal.ts";

Deno.test("safeEqual() is true only for the same string, whatever the lengths", () => {
  assert.ok(safeEqual("abc", "abc") && !safeEqual("abc", "abd") && !safeEqual("a", "ab"));
  assert.ok(safeEqual("", "") && !safeEqual("", "a"));
  assert.ok(safeEqual("ключ", "ключ") && !safeEqual("ключ", "ключи"));
});
