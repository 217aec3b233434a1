import assert from "node:assert/strict";
import { deepMerge } from "../../../lib/config/mod.ts";

Deno.test("deepMerge() merges nested objects key by key", () => {
  const out = deepMerge({ a: { b: 1, c: 2 }, d: 3 }, { a: { c: 20 } });
  assert.deepEqual(out, { a: { b: 1, c: 20 }, d: 3 });
});

Deno.test("deepMerge() skips null values so the lower value is kept", () => {
  const out = deepMerge({ a: { b: 1 }, token: "x" }, { a: { b: null }, token: null });
  assert.deepEqual(out, { a: { b: 1 }, token: "x" });
});

Deno.test("deepMerge() replaces arrays and scalars instead of merging them", () => {
  const out = deepMerge({ ports: [1, 2, 3], n: 1 }, { ports: [9], n: 2 });
  assert.deepEqual(out, { ports: [9], n: 2 });
});

Deno.test("deepMerge() replaces an object with a scalar and adds new keys", () => {
  const out = deepMerge<Record<string, unknown>>({ a: { b: 1 } }, { a: 5, z: { y: 1 } });
  assert.deepEqual(out, { a: 5, z: { y: 1 } });
});

Deno.test("deepMerge() leaves both inputs unchanged", () => {
  const lower = { a: { b: 1 } };
  const upper = { a: { b: 2 } };
  deepMerge(lower, upper);
  assert.deepEqual(lower, { a: { b: 1 } });
  assert.deepEqual(upper, { a: { b: 2 } });
});
